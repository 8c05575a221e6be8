'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import { errorInfo } from './errors/error-info';
import { TRPCProvider } from './trpc/client';
import type { AppRouter } from './trpc/router-types';
import { uiHeaders } from './trpc/ui-header';

const endpoint = '/api/trpc';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // A refusal (4xx) will not change by asking again; a fault might.
        retry: (failures, error) => {
          const status = errorInfo(error).httpStatus;
          return failures < 2 && (status === null || status >= 500);
        },
      },
    },
  });
}

/** Queries and mutations go over batched HTTP, subscriptions over SSE (which resume by event id). */
function createClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: endpoint }),
        false: httpBatchLink({ url: endpoint, headers: () => uiHeaders }),
      }),
    ],
  });
}

export function Providers({ children }: { readonly children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
