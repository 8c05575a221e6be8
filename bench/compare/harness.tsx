/**
 * The compare matrix alone in a page, for render.ts: `<CompareMatrix>` as the task page mounts it,
 * its tRPC client answering from memory (the JSON body the server gave, parsed on the request as
 * the HTTP link would), so the figure is the component's: parse, render, first paint, scroll.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createRoot } from 'react-dom/client';
import { CompareMatrix } from '../../components/compare/compare-matrix';
import { TRPCProvider } from '../../components/trpc/client';
import type { AppRouter } from '../../components/trpc/router-types';

declare global {
  interface Window {
    __body: string;
    __iterations: number;
    __startedAt?: number;
    start: () => void;
  }
}

const memoryLink: TRPCLink<AppRouter> =
  () =>
  ({ op }) =>
    observable((observer) => {
      const data: unknown =
        op.path === 'tasks.compare'
          ? JSON.parse(window.__body)
          : {
              runId: '',
              test: '',
              lines: [],
              source: 'the bench keeps no output',
              truncated: false,
            };
      observer.next({ result: { type: 'data', data } });
      observer.complete();
    });

window.start = () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [memoryLink] });
  const root = document.getElementById('root');
  if (root === null) throw new Error('no #root');
  window.__startedAt = performance.now();
  createRoot(root).render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <CompareMatrix taskId="c0123456789abcdefghijklmn" iterations={window.__iterations} />
      </TRPCProvider>
    </QueryClientProvider>,
  );
};
