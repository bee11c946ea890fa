import type { TestSandbox } from '../../sandbox.fixture.ts'

/**
 * What the tests of the user's own step-up threshold share: users signed up in an app (the seeded
 * 'demo' sets no threshold, 'stepup' 0.01 ETH on 31337) and the threshold routes called as a script
 * holding their wallet token would. `sandbox` is read at each call (the tests start it in beforeAll).
 */
export function thresholdCalls(sandbox: () => TestSandbox, emailPrefix: string) {
  let users = 0
  const newUser = async (app = 'demo') => {
    const email = `${emailPrefix}-${++users}@example.com`
    return { ...(await sandbox().signUp(email, app)), email, app }
  }
  type User = Awaited<ReturnType<typeof newUser>>
  const call = (user: User, method: string, path: string, body?: unknown) =>
    sandbox().call(`/api/v2/wallet/step-up-thresholds${path}`, {
      method,
      app: user.app,
      headers: { authorization: `Bearer ${user.walletToken}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const put = (user: User, amount: unknown, extra: object = {}, chainId: string | number = 31337) => call(user, 'PUT', `/${chainId}`, { amount, ...extra })
  const remove = (user: User, extra: object = {}, chainId: string | number = 31337) => call(user, 'DELETE', `/${chainId}`, extra)
  return { newUser, call, put, remove }
}
