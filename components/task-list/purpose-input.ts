/** What the create form holds about what a task is for, as typed. */
export interface PurposeValues {
  readonly title: string;
  readonly problem: string;
  readonly issueUrl: string;
}

/** The fields to send: only those given, so the server makes the title from the source. */
export interface PurposeInput {
  readonly title?: string;
  readonly problem?: string;
  readonly issueUrl?: string;
}

/**
 * The title and the link lose the spaces around them; the problem is Markdown, where leading
 * indentation means code, so it is sent as typed unless it is blank.
 */
export function purposeOf(values: PurposeValues): PurposeInput {
  const title = values.title.trim();
  const issueUrl = values.issueUrl.trim();
  return {
    ...(title === '' ? {} : { title }),
    ...(values.problem.trim() === '' ? {} : { problem: values.problem }),
    ...(issueUrl === '' ? {} : { issueUrl }),
  };
}
