import { copiedNoticeMs } from './constants.ts'
import { useTimedMessage } from './use-timed.ts'

/** Copies text and shows 'Copied to clipboard' for 3 s (SPEC.md section 9). */
export function useCopy(): [string | null, (text: string) => void] {
  const [notice, show] = useTimedMessage(copiedNoticeMs)
  const copy = (text: string) =>
    void navigator.clipboard.writeText(text).then(
      () => show('Copied to clipboard'),
      () => show('Copy failed'),
    )
  return [notice, copy]
}
