import { plural } from '../format';
import type { BatchMember } from './batch-types';

/**
 * "#2 fix-foo": a member by its place in the batch (1-based, as people count) and its task's
 * title. A task the batch does not list (it should not happen) is named by its id.
 */
export function memberLabel(member: Pick<BatchMember, 'position' | 'title' | 'taskId'>): string {
  const title = member.title.trim() === '' ? `task ${member.taskId}` : member.title;
  return `#${member.position + 1} ${title}`;
}

export type LabelOf = (taskId: string) => string;

export function labelsOf(members: readonly BatchMember[]): LabelOf {
  const byId = new Map(members.map((member) => [member.taskId, memberLabel(member)]));
  return (taskId) => byId.get(taskId) ?? `task ${taskId}`;
}

/** "a", "a and b", "a, b and c". */
export function andList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** A batch in a list: the titles of the members still in it, in batch order ("a + b"). */
export function batchName(members: readonly BatchMember[]): string {
  const titles = members
    .filter((member) => member.dropped === null)
    .sort((a, b) => a.position - b.position)
    .map((member) => (member.title.trim() === '' ? `task ${member.taskId}` : member.title));
  return titles.length === 0 ? 'Batch without members' : titles.join(' + ');
}

/** "3 members", "2 members (1 dropped)". */
export function memberCount(members: readonly BatchMember[]): string {
  const dropped = members.filter((member) => member.dropped !== null).length;
  const count = plural(members.length - dropped, 'member');
  return dropped === 0 ? count : `${count} (${dropped} dropped)`;
}
