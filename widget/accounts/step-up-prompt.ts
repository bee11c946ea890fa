/**
 * The service refused a transaction for want of a step-up: whoever shows the confirmation (the
 * confirmation modal) answers with the proof, asked of the user for the hash of that very
 * transaction, or refuses (the user closed it: a 4001). One screen answers at a time.
 */
type Ask = (request: `0x${string}`) => Promise<string>

let answer: Ask | null = null

export const transactionStepUp = {
  /** `ask` answers from now on; the function returned stops it. */
  answerWith(ask: Ask) {
    answer = ask
    return () => {
      if (answer === ask) answer = null
    }
  },
  ask(request: `0x${string}`): Promise<string> {
    return answer ? answer(request) : Promise.reject(new Error('A confirmation code is needed and cannot be asked here'))
  },
}

/** The wallet service's 403 `Step-up required` for a transaction (data.stepUp.action). */
export function needsTransactionStepUp(error: unknown): boolean {
  const details = (error as { details?: { data?: { stepUp?: { action?: unknown } } } } | null)?.details
  return (error as { code?: unknown } | null)?.code === '403' && details?.data?.stepUp?.action === 'send-transaction'
}
