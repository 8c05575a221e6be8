import { describe, expect, it } from 'vitest';
import { parseTokenOutput } from './app-server';
import { parsePs, processTree } from './processes';
import { errorCode, type ApiResponse } from './rest-client';
import { SseParser } from './sse';

const token = `sbx_${'A'.repeat(43)}`;

describe('parseTokenOutput', () => {
  it('takes the token field of the JSON', () => {
    expect(
      parseTokenOutput(`${JSON.stringify({ id: 't1', token, name: 'n', scopes: ['agent'] })}\n`),
    ).toBe(token);
  });

  it('falls back to the first line that starts with sbx_', () => {
    expect(parseTokenOutput(`made a token\n${token}\nid t1\n`)).toBe(token);
    expect(parseTokenOutput(`${token}\n`)).toBe(token);
  });

  it('finds nothing in an error', () => {
    expect(parseTokenOutput('{"error":{"code":"INTERNAL","message":"x"}}')).toBeUndefined();
    expect(parseTokenOutput('')).toBeUndefined();
  });
});

describe('SseParser', () => {
  it('parses frames with id, event and multi-line data', () => {
    const parser = new SseParser();
    const frames = parser.feed(
      ': keep-alive\n\nid: 1\nevent: task.created\ndata: {"seq":1}\n\nid: 2\ndata: a\ndata:b\n\n',
    );
    expect(frames).toEqual([
      { id: '1', lastEventId: '1', event: 'task.created', data: '{"seq":1}', retry: undefined },
      { id: '2', lastEventId: '2', event: 'message', data: 'a\nb', retry: undefined },
    ]);
  });

  it('joins lines split across chunks, including a CRLF split in the middle', () => {
    const parser = new SseParser();
    const text = '\uFEFFid: 7\r\nevent: x\r\ndata: {"a":1}\r\n\r\nid: 8\rdata: y\r\r';
    const frames = [];
    for (let i = 0; i < text.length; i += 3) frames.push(...parser.feed(text.slice(i, i + 3)));
    frames.push(...parser.end());
    expect(frames.map((f) => [f.id, f.event, f.data])).toEqual([
      ['7', 'x', '{"a":1}'],
      ['8', 'message', 'y'],
    ]);
  });

  it('keeps the last id for frames without one but reports that they had none', () => {
    const parser = new SseParser();
    const [first, second] = parser.feed('id: 3\ndata: a\n\ndata: b\n\n');
    expect(first?.id).toBe('3');
    expect(second?.id).toBeUndefined();
    expect(second?.lastEventId).toBe('3');
  });

  it('drops an unfinished frame at the end and ignores frames without data', () => {
    const parser = new SseParser();
    expect(parser.feed('id: 1\nevent: ping\n\nretry: 10\ndata: half')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe('processTree', () => {
  it('follows parent pids and leaves zombies out', () => {
    const processes = parsePs(
      [
        '  10     1    10 Ssl  node next start',
        '  11    10    11 S    unshare --user -- pytest',
        '  12    11    11 S    sleep 60.123456',
        '  13    10    10 Z    [node] <defunct>',
        '  20     1    20 S    bash',
      ].join('\n'),
    );
    expect(processTree(processes, 10).map((p) => p.pid)).toEqual([10, 11, 12]);
    expect(processes[2]?.args).toBe('sleep 60.123456');
  });
});

describe('errorCode', () => {
  const response = (body: unknown): ApiResponse => ({
    method: 'GET',
    url: 'http://x/',
    status: 400,
    headers: new Headers(),
    text: JSON.stringify(body),
    body,
  });

  it('reads {"error":{"code"}} and a bare {"code"}', () => {
    expect(errorCode(response({ error: { code: 'STALE_DIFF', message: 'm' } }))).toBe('STALE_DIFF');
    expect(errorCode(response({ code: 'FORBIDDEN' }))).toBe('FORBIDDEN');
    expect(errorCode(response('nope'))).toBeUndefined();
  });
});
