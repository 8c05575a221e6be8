import { plural } from '../../format';
import { DraftCard } from './draft-card';
import { placeText } from './line-selection';
import { ThreadCard, type ThreadRights } from './thread-card';
import type { Placement } from './thread-placement';

/**
 * The conversation that has no line in the diff shown, listed above it: outdated threads (their
 * code changed or went away) with the lines they were about and the diff they were written on;
 * threads anchored in a newer diff than the one shown; drafts written on another diff.
 */
export function ThreadsApart({
  taskId,
  placement,
  rights,
  expanded,
  onExpanded,
  replying,
  onReplying,
  editing,
  onEditing,
}: {
  readonly taskId: string;
  readonly placement: Placement;
  readonly rights: ThreadRights;
  readonly expanded: ReadonlySet<string>;
  readonly onExpanded: (threadId: string, on: boolean) => void;
  readonly replying: ReadonlySet<string>;
  readonly onReplying: (threadId: string, on: boolean) => void;
  readonly editing: ReadonlySet<string>;
  readonly onEditing: (draftId: string, on: boolean) => void;
}) {
  const { outdated, elsewhere, strayDrafts } = placement;
  const card = (thread: Placement['outdated'][number]) => (
    <ThreadCard
      key={thread.id}
      taskId={taskId}
      thread={thread}
      replyDrafts={placement.replyDrafts.get(thread.id) ?? []}
      rights={rights}
      expanded={expanded.has(thread.id)}
      onExpanded={(on) => onExpanded(thread.id, on)}
      replying={replying.has(thread.id)}
      onReplying={(on) => onReplying(thread.id, on)}
      editingDrafts={editing}
      onEditingDraft={onEditing}
      showCode
    />
  );
  return (
    <>
      {elsewhere.length === 0 ? null : (
        <section className="threads-apart" aria-labelledby="threads-elsewhere-heading">
          <h4 id="threads-elsewhere-heading">Not on the lines shown: {elsewhere.length}</h4>
          <p className="muted">
            {plural(elsewhere.length, 'thread')} {elsewhere.length === 1 ? 'is' : 'are'} anchored in
            another diff than the one shown (show the new diff to see{' '}
            {elsewhere.length === 1 ? 'it' : 'them'} in place).
          </p>
          {elsewhere.map(card)}
        </section>
      )}
      {outdated.length === 0 ? null : (
        <details className="threads-apart">
          <summary>
            <h4>Outdated: {outdated.length}</h4>
          </summary>
          {outdated.map(card)}
        </details>
      )}
      {strayDrafts.length === 0 ? null : (
        <section className="threads-apart" aria-labelledby="stray-drafts-heading">
          <h4 id="stray-drafts-heading">Drafts on another diff: {strayDrafts.length}</h4>
          <p className="muted">
            A review cannot send these: delete them, or write them again on the diff shown.
          </p>
          {strayDrafts.map((draft) => (
            <DraftCard
              key={draft.id}
              taskId={taskId}
              draft={draft}
              place={placeText({
                path: draft.path ?? '',
                side: draft.side ?? 'new',
                startLine: draft.startLine ?? 0,
                endLine: draft.endLine ?? 0,
              })}
              editing={false}
              onEditing={() => undefined}
              editable={false}
            />
          ))}
        </section>
      )}
    </>
  );
}
