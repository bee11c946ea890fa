import { copiedNoticeMs } from './constants.ts'
import { useT } from './context.ts'
import { useTimedMessage } from './use-timed.ts'

/** Copies text and shows 'Copied to clipboard' for 3 s. */
export function useCopy(): [string | null, (text: string) => void] {
  const [notice, show] = useTimedMessage(copiedNoticeMs)
  const t = useT()
  const copy = (text: string) =>
    void navigator.clipboard.writeText(text).then(
      () => show(t.copied),
      () => show(t.copyFailed),
    )
  return [notice, copy]
}
