'use client';

import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from './router-types';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
