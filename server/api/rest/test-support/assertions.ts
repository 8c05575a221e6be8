import { expect } from 'vitest';

export interface ErrorJson {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly details?: Record<string, unknown>;
  };
}

/** Checks an error response's status, JSON shape and code; returns the error for more checks. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  message?: string | RegExp,
): Promise<ErrorJson['error']> {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await response.json()) as ErrorJson;
  expect({ status: response.status, code: body.error.code }).toEqual({ status, code });
  expect(Object.keys(body)).toEqual(['error']);
  if (message !== undefined) expect(body.error.message).toMatch(message);
  return body.error;
}

export async function readJson<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return JSON.parse(text) as T;
}
