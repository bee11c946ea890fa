import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'

/**
 * The profile's cached reads (balance, ramp references and quotes). Loaded with the profile, not
 * with the frame: the connect modal reads nothing through it. One client for the frame's life, so
 * reopening the profile reuses what is fresh; no retry, no refetch on focus and an hour's
 * stale time, as for the app config.
 */
const queries = new QueryClient({
  defaultOptions: { queries: { staleTime: 60 * 60 * 1000, retry: false, refetchOnWindowFocus: false } },
})

export const Queries = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queries}>{children}</QueryClientProvider>
