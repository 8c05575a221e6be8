import { statusSetBy } from '@/server/engine/lifecycle';
import { formatArgv, shortSha } from '../format';
import { verdictWord } from '../review/model-review';
import type { EventOf, TimelineItem } from '../trpc/router-types';
import {
  appendTail,
  type HypothesisRow,
  type IterationState,
  type Note,
  type TimelineState,
} from './timeline-state';

/**
 * Folds one stored event into the timeline. Pure; an event at or below the last seq applied is a
 * repeat (a reconnect, a replay) and changes nothing, so the page never shows anything twice.
 */
export function reduceTimeline(state: TimelineState, item: TimelineItem): TimelineState {
  if (item.seq <= state.lastSeq) return state;
  const { event } = item;
  const next = apply(state, item);
  // The server's reducer allowed the move; the timeline only follows it.
  const status = event.type === 'task.resumed' ? event.status : statusSetBy(event.type);
  return { ...next, lastSeq: item.seq, status: status ?? next.status };
}

function apply(state: TimelineState, { seq, createdAt, event }: TimelineItem): TimelineState {
  const note = (
    kind: Note['kind'],
    text: string,
    details: readonly string[] = [],
  ): TimelineState => ({
    ...state,
    notes: [...state.notes, { seq, at: createdAt, kind, text, details }],
  });
  switch (event.type) {
    case 'task.created':
      return { ...state, created: event };
    case 'intake.started':
      return { ...state, intake: { ...state.intake, state: 'running', location: event.location } };
    case 'intake.progress':
      return {
        ...state,
        intake: { ...state.intake, state: 'running', entries: event.entries, bytes: event.bytes },
      };
    case 'intake.git.progress':
      return {
        ...state,
        intake: { ...state.intake, state: 'running', phase: event.phase, percent: event.percent },
      };
    case 'intake.completed':
      return {
        ...state,
        intake: {
          ...state.intake,
          state: 'completed',
          files: event.files,
          bytes: event.bytes,
          commit: event.commit,
        },
      };
    case 'intake.rejected':
      return {
        ...state,
        intake: { ...state.intake, state: 'rejected', rejection: { ...event } },
      };
    case 'workspace.ready':
      return { ...state, workspace: event };
    case 'workspace.restored':
      return note('restored', restoredText(event));
    case 'setup.started':
      return {
        ...state,
        setup: {
          state: 'running',
          commands: event.commands,
          detected: event.detected,
          reasons: event.reasons,
          liveOutput: [],
          result: null,
        },
      };
    case 'setup.finished':
      return { ...state, setup: { ...state.setup, state: 'finished', result: event } };
    case 'baseline.started':
      return {
        ...state,
        baseline: { state: 'running', command: event.command, liveOutput: [], run: null },
      };
    case 'baseline.finished':
      return { ...state, baseline: { ...state.baseline, state: 'finished', run: event.run } };
    case 'run.output':
      if (event.iteration === 0 && event.subject === 'setup') {
        const liveOutput = appendTail(state.setup.liveOutput, event.lines);
        return { ...state, setup: { ...state.setup, liveOutput } };
      }
      if (event.iteration === 0) {
        const liveOutput = appendTail(state.baseline.liveOutput, event.lines);
        return { ...state, baseline: { ...state.baseline, liveOutput } };
      }
      return updateRow(state, event.iteration, event.subject, (row) => ({
        ...row,
        liveOutput: appendTail(row.liveOutput, event.lines),
      }));
    case 'iteration.started':
      return updateIteration(state, event.index, (it) => ({ ...it, state: 'started' }));
    case 'iteration.awaiting_hypotheses':
      return updateIteration(state, event.index, (it) => ({
        ...it,
        state: 'awaiting_hypotheses',
        wanted: event.wanted,
        deadline: event.deadline,
      }));
    case 'hypotheses.submitted': {
      const known = new Set(state.pending.map((p) => p.name));
      const added = event.names.filter((name) => !known.has(name));
      const pending = [...state.pending, ...added.map((name) => ({ name, origin: event.origin }))];
      return { ...state, pending };
    }
    case 'iteration.running': {
      const running = new Set(event.hypotheses.map((h) => h.name));
      const next = updateIteration(state, event.index, (it) => ({
        ...it,
        state: 'running',
        hypotheses: event.hypotheses.map(
          (h) => it.hypotheses.find((row) => row.name === h.name) ?? newRow(h.name, h.origin),
        ),
      }));
      return { ...next, pending: state.pending.filter((p) => !running.has(p.name)) };
    }
    case 'hypothesis.started':
      return updateRow(state, event.index, event.name, (row) => ({ ...row, state: 'running' }));
    case 'hypothesis.finished':
      return updateRow(state, event.index, event.result.name, (row) => ({
        ...row,
        state: 'finished',
        result: event.result,
      }));
    case 'iteration.finished':
      return updateIteration(state, event.index, (it) => {
        const ranked = event.ranked.map((result): HypothesisRow => {
          const row = it.hypotheses.find((r) => r.name === result.name);
          return {
            ...(row ?? newRow(result.name, 'unknown')),
            state: 'finished',
            rank: result.rank,
            result,
          };
        });
        const unranked = it.hypotheses.filter((row) => !ranked.some((r) => r.name === row.name));
        return {
          ...it,
          state: 'finished',
          winner: event.winner,
          green: event.green,
          checkpointSha: event.checkpointSha,
          hypotheses: [...ranked.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)), ...unranked],
        };
      });
    case 'fixer.spent':
      return {
        ...state,
        spend: {
          tokens: event.totalTokens,
          costMicroUsd: event.totalCostMicroUsd,
          decisions: (state.spend?.decisions ?? 0) + 1,
        },
      };
    case 'gates.finished': {
      const green = event.gates.filter((gate) => gate.green).length;
      const all = event.gates.length;
      return note(
        green === all ? 'gates_green' : 'gates_red',
        `Gates ran on ${shortSha(event.commitSha)}: ${green} of ${all} green`,
        event.gates.map(gateLine),
      );
    }
    case 'milestone.done':
      return note(
        'step_done',
        `Step ${event.step} done by ${event.by} (checkpoint ${shortSha(event.commitSha)})`,
      );
    case 'milestone.reset':
      return note('step_reset', `Step ${event.step} reopened by ${event.by}`);
    case 'review.ready':
      return { ...state, review: event };
    case 'review.commented':
      return note(
        'advice',
        `Reviewer model ${event.reviewer}: ${verdictWord(event.verdict)} on diff ${shortSha(event.diffSha256)} (advisory)`,
      );
    case 'review.submitted':
      // A request for changes or an approval is told by the verdict's own event, which follows.
      return event.verdict === 'comment'
        ? note(
            'commented',
            `${event.by} commented on diff ${shortSha(event.sha256)}: ${reviewCounts(event.threads, event.replies)}`,
          )
        : state;
    case 'task.changes_requested': {
      const next = updateIteration(state, event.iteration, (it) => ({
        ...it,
        state: 'awaiting_hypotheses',
        review: {
          round: event.round,
          by: event.by,
          summary: event.summary,
          threads: event.threads.length,
        },
      }));
      const text = `Changes requested by ${event.by} on diff ${shortSha(event.sha256)}: review round ${event.round}, iteration ${event.iteration}`;
      const details = [
        ...(event.summary === null ? [] : [event.summary]),
        ...event.threads.map(
          (t) =>
            `${t.path}:${t.startLine === t.endLine ? t.startLine : `${t.startLine}–${t.endLine}`}${t.side === 'old' ? ' (old)' : ''}`,
        ),
      ];
      return {
        ...next,
        notes: [...next.notes, { seq, at: createdAt, kind: 'changes_requested', text, details }],
      };
    }
    case 'review.thread':
      return threadNote(state, seq, createdAt, event);
    case 'review.dismissed':
      return note('dismissed', `${event.by} dismissed a request for changes: ${event.reason}`);
    case 'review.requested_now':
      return note(
        'review_now',
        `${event.by} sent checkpoint ${shortSha(event.checkpointSha)} to review without waiting for more hypotheses`,
      );
    case 'task.known_failures':
      return note(
        'known_failures',
        `${event.by} accepted ${event.added.length === 1 ? '1 test' : `${event.added.length} tests`} that failed before any change as known failures`,
        [...event.added],
      );
    case 'review.promoted':
      return note(
        'promoted',
        `${event.by} promoted ${event.hypothesis} over ${event.passedOver} (iteration ${event.iteration}): ${event.reason}`,
      );
    case 'task.pushed':
      return note(
        'pushed',
        `${event.by} pushed ${shortSha(event.commit)} to ${event.branch} on ${event.remote} (${event.url})`,
        event.pullRequest === null ? [] : [`Pull request: ${event.pullRequest}`],
      );
    case 'task.approved':
      return note('approved', `Approved by ${event.by} (diff ${event.sha256.slice(0, 12)})`);
    case 'task.rejected':
      return note('rejected', `Rejected by ${event.by} (diff ${event.sha256.slice(0, 12)})`);
    case 'task.reopened':
      return note(
        'reopened',
        `Reopened by ${event.by} (approval of ${event.sha256.slice(0, 12)} withdrawn)`,
      );
    case 'task.rolled_back':
      return note('rolled_back', `Worktree rolled back to ${event.to.slice(0, 12)}`);
    case 'task.failed':
      return note('failed', `Failed: ${event.reason}`);
    case 'task.cancelled':
      return note('cancelled', `Cancelled by ${event.by}`);
    case 'task.abandoned':
      return note('cancelled', `Fix given up by ${event.by}`);
    case 'task.interrupted':
      return note('interrupted', `Interrupted: ${event.reason}`);
    default:
      return state;
  }
}

const threadVerbs: Readonly<Record<EventOf<'review.thread'>['action'], string>> = {
  replied: 'replied to',
  resolved: 'resolved',
  reopened: 'reopened',
};

/**
 * "alice resolved a thread"; the same person doing the same to threads one after another folds
 * into one note ("alice resolved 3 threads"), so 200 resolutions are one line of the timeline.
 */
function threadNote(
  state: TimelineState,
  seq: number,
  at: string,
  event: EventOf<'review.thread'>,
): TimelineState {
  const key = `thread:${event.action}:${event.by}`;
  const last = state.notes.at(-1);
  const count = last?.group?.key === key ? last.group.count + 1 : 1;
  const text = `${event.by} ${threadVerbs[event.action]} ${count === 1 ? 'a thread' : `${count} threads`}`;
  const folded: Note = { seq, at, kind: 'thread', text, details: [], group: { key, count } };
  const kept = count === 1 ? state.notes : state.notes.slice(0, -1);
  return {
    ...state,
    notes: [...kept, count === 1 ? folded : { ...folded, seq: last?.seq ?? seq }],
  };
}

function reviewCounts(threads: number, replies: number): string {
  const parts = [
    ...(threads === 0 ? [] : [`${threads} new thread${threads === 1 ? '' : 's'}`]),
    ...(replies === 0 ? [] : [`${replies} repl${replies === 1 ? 'y' : 'ies'}`]),
  ];
  return parts.length === 0 ? 'a summary' : parts.join(', ');
}

/** This worker lacked the task's workspace (a takeover) or held an older one: what it rebuilt. */
function restoredText(event: EventOf<'workspace.restored'>): string {
  const parts = [
    ...(event.repository
      ? [`repository rebuilt from ${event.bundles} stored bundle${event.bundles === 1 ? '' : 's'}`]
      : []),
    `worktree ${event.worktree}`,
  ];
  return `Workspace restored at checkpoint ${shortSha(event.checkpointSha)}: ${parts.join(', ')}`;
}

function gateLine(gate: EventOf<'gates.finished'>['gates'][number]): string {
  const result = gate.green
    ? 'green'
    : `red (${gate.exitCode === null ? 'no exit code' : `exit ${gate.exitCode}`})`;
  return `Step ${gate.step}: ${formatArgv(gate.argv)} — ${result}`;
}

function newRow(name: string, origin: string): HypothesisRow {
  return { name, origin, state: 'queued', rank: null, result: null, liveOutput: [] };
}

function updateIteration(
  state: TimelineState,
  index: number,
  change: (iteration: IterationState) => IterationState,
): TimelineState {
  const existing = state.iterations.find((it) => it.index === index);
  const base: IterationState = existing ?? {
    index,
    state: 'started',
    wanted: null,
    deadline: null,
    hypotheses: [],
    winner: null,
    green: null,
    checkpointSha: null,
    review: null,
  };
  const changed = change(base);
  const others = state.iterations.filter((it) => it.index !== index);
  return { ...state, iterations: [...others, changed].sort((a, b) => a.index - b.index) };
}

function updateRow(
  state: TimelineState,
  index: number,
  name: string,
  change: (row: HypothesisRow) => HypothesisRow,
): TimelineState {
  return updateIteration(state, index, (it) => {
    const found = it.hypotheses.some((row) => row.name === name);
    const rows = found ? it.hypotheses : [...it.hypotheses, newRow(name, 'unknown')];
    return { ...it, hypotheses: rows.map((row) => (row.name === name ? change(row) : row)) };
  });
}
