import { afterAll, beforeAll, expect, test } from 'vitest'
import { appConfigElementId } from '../../../sdk/app-config.ts'
import { upsertApp } from '../app-config/queries.ts'
import { startTestSandbox, testAppSettings, type TestSandbox } from '../../sandbox.fixture.ts'

/**
 * The wallet frame's page carries its app config (routes.ts withAppConfig), so that the frame's
 * first load asks the network nothing before it answers the page. What it carries is what
 * GET /api/v1/apps/config answers, and nothing in it can break out of its data block.
 */
let sandbox: TestSandbox
const hostile = '</script><script>alert(1)</script><!-- <b>'

beforeAll(async () => {
  sandbox = await startTestSandbox()
  await upsertApp(sandbox.store, {
    appId: 'hostile',
    name: hostile,
    environments: ['production'],
    clientSecret: 'hostile-secret',
    allowedOrigins: ['https://hostile.example'],
    settings: testAppSettings({ logoUrl: 'https://cdn.hostile.example/</script>.png' }),
  })
})
afterAll(() => sandbox?.dispose())

const page = async (query: string) => {
  const response = await fetch(`${sandbox.url}/widget/?${query}`)
  expect(response.status).toBe(200)
  return response.text()
}

/** The data blocks with the frame's id, and what each holds as JSON. */
const blocks = (html: string) =>
  [...html.matchAll(new RegExp(`<script type="application/json" id="${appConfigElementId}">(.*?)</script>`, 'gs'))].map((m) => JSON.parse(m[1]!))

const answered = async (app: string, env: 'sandbox' | 'production') =>
  (await sandbox.call('/api/v1/apps/config', { headers: { 'x-app-id': app, 'x-environment': env === 'production' ? 'production' : 'development' } })).body.data

test("the frame's page carries exactly what GET /apps/config answers for its app and environment", async () => {
  const html = await page('appId=demo&env=sandbox')
  expect(blocks(html)).toEqual([await answered('demo', 'sandbox')])
  // In the head, before any of the frame's code.
  expect(html.indexOf(appConfigElementId)).toBeLessThan(html.indexOf('</head>'))
})

test('an unknown app, an environment it lacks, a malformed one, or none: no copy in the page', async () => {
  for (const query of ['appId=nobody&env=sandbox', 'appId=hostile&env=sandbox', 'appId=demo&env=staging', 'appId=demo', 'env=sandbox', ''])
    expect(blocks(await page(query)), query).toEqual([])
})

test("nothing in an app's settings can end the data block or add an element to the page", async () => {
  const html = await page('appId=hostile&env=production')
  const [config] = blocks(html)
  expect(config.name).toBe(hostile)
  expect(config.logoUrl).toBe('https://cdn.hostile.example/</script>.png')
  // The one data block, and not one `<` of the settings raw in the page.
  expect(html.match(/<script/g)).toHaveLength(1)
  expect(html).not.toContain('alert(1)</script>')
  expect(html).not.toContain('<!--')
  expect(html).not.toContain('<b>')
})
