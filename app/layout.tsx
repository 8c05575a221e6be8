import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'Shadowbox',
  description:
    'Test candidate fixes in copy-on-write shadows of a workspace and review the winning diff.',
};

export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#content" className="skip-link">
          Skip to content
        </a>
        <header className="site-header">
          <nav aria-label="Site">
            <Link href="/" className="brand">
              Shadowbox
            </Link>
            <Link href="/coding">Tasks</Link>
          </nav>
        </header>
        <div id="content">{children}</div>
      </body>
    </html>
  );
}
