import Markdown, { type Components } from 'react-markdown';
import { safeHref } from './comment-links';

/**
 * Markdown as React elements, never as HTML: raw HTML in a comment is shown as the text it is,
 * links lead only to http(s) pages (and open apart from this page), and images are not loaded
 * (a comment cannot make every reader's browser fetch a URL): their alt text is shown.
 */
const components: Components = {
  a: ({ href, children }) => {
    const safe = safeHref(href);
    return safe === null ? (
      <span className="unsafe-link">{children}</span>
    ) : (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow ugc">
        {children}
      </a>
    );
  },
  img: ({ alt }) => (
    <span className="muted">[image{alt === undefined || alt === '' ? '' : `: ${alt}`}]</span>
  ),
};

const keepOnlyWebLinks = (url: string): string => safeHref(url) ?? '';

/** A comment's body (Markdown). */
export function CommentBody({ body }: { readonly body: string }) {
  return (
    <div className="comment-body">
      <Markdown components={components} urlTransform={keepOnlyWebLinks}>
        {body}
      </Markdown>
    </div>
  );
}
