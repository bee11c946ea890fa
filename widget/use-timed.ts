import { useCallback, useEffect, useRef, useState } from 'react'

/** A message that clears itself after `ms` (errors 3 s, the copied notice 3 s). */
export function useTimedMessage(ms: number): [string | null, (message: string) => void] {
  const [message, setMessage] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const show = useCallback(
    (text: string) => {
      clearTimeout(timer.current)
      setMessage(text)
      timer.current = setTimeout(() => setMessage(null), ms)
    },
    [ms],
  )
  return [message, show]
}

/** Counts down once a second from `seconds`; `restart(n)` starts again from n. */
export function useCountdown(seconds: number): [number, (from: number) => void] {
  const [left, setLeft] = useState(seconds)
  useEffect(() => {
    if (left <= 0) return
    const t = setTimeout(() => setLeft((n) => n - 1), 1000)
    return () => clearTimeout(t)
  }, [left])
  return [left, setLeft]
}

/** The message of a failed service call: the server's message when it sent one. */
export function errorText(err: unknown): string {
  if (err instanceof Error && err.message) return err.message
  return 'Something went wrong'
}
