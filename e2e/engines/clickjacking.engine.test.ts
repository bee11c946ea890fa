import { describe, expect, it } from 'vitest'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { frameElement, type Outcome, pending, signUp, startRequest, until, useEngine } from './flows.ts'

/**
 * The host page styling the wallet frame's element to bait a click onto Confirm (the Chromium
 * suite's clickjacking variants). These engines have no IntersectionObserver v2: the frame cannot
 * tell what the page does to it, so it never shows Confirm at all. Whatever the page does, the
 * victim's click on the frame's primary button only opens the secure window (a top-level window
 * the page cannot style), and nothing is signed or sent by it.
 */
const attacker = '0x00000000000000000000000000000000000a77ac'
const nineEth = '0x7ce66c50e2840000'
const primary = '.wk-dialog .wk-row--even .wk-button--primary'

/** Adds `css` to the wallet frame element's own style, as the attacking page does. */
const style = (engine: Engine, css: string) =>
  engine.run('page', `document.querySelector(args[0]).style.cssText += ';' + args[1]; return true`, frameElement, css)

/** A style sheet of the page's own (set before a request: the kit styles the element when it opens). */
const styleSheet = (engine: Engine, css: string) =>
  engine.run('page', `const s = document.createElement('style'); s.textContent = args[0]; document.head.append(s); return true`, css)

/** Crops the frame's element to the box of its buttons row, by clip-path or by a mask. */
async function cropToButtons(engine: Engine, how: 'clip-path' | 'mask-image') {
  const row = await engine.run<{ x: number; y: number; width: number; height: number }>(
    'frame',
    `const r = document.querySelector(args[0]).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }`,
    '.wk-dialog .wk-row--even',
  )
  const page = await engine.run<{ x: number; y: number; width: number; height: number }>(
    'page',
    `const r = document.querySelector(args[0]).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }`,
    frameElement,
  )
  // In the element's own box (the frame fills it from its top left corner).
  const [top, right, bottom, left] = [row.y - 2, page.width - row.x - row.width - 2, page.height - row.y - row.height - 2, row.x - 2]
  const band = `transparent ${top}px, black ${top}px, black ${page.height - bottom}px, transparent ${page.height - bottom}px`
  await style(
    engine,
    how === 'clip-path'
      ? `clip-path: inset(${top}px ${right}px ${bottom}px ${left}px)`
      : `mask-image: linear-gradient(to bottom, ${band}); -webkit-mask-image: linear-gradient(to bottom, ${band})`,
  )
}

/**
 * The frame shows no Confirm, only the offer of the secure window; the victim's click on the
 * primary button (after resting on it) opens that window and signs nothing; closing the modal then
 * answers 4001.
 */
async function onlyTheWindowConfirms(engine: Engine, shot: string, request: Promise<Outcome>, shows: { selector: string; text: string }) {
  await engine.waitFor('frame', 'text=Open secure window')
  await engine.waitFor('frame', 'text=Confirm', { hidden: true, timeout: 1_000 })
  const windows = await engine.windowCount()
  await engine.screenshot('page', `${shot}-baited`)
  await engine.click('frame', primary)
  await engine.waitForWindow()
  expect(await engine.windowCount()).toBe(windows + 1)
  expect(await engine.text('window', shows.selector)).toBe(shows.text)
  await engine.waitFor('window', 'text=Confirm')
  await engine.screenshot('window', `${shot}-window`)
  expect(await pending(request)).toBe(true)
  await engine.waitFor('frame', 'text=Confirm', { hidden: true, timeout: 1_000 })
  await engine.run('page', `window.WalletKit.kit.close(); return true`)
  expect(await request).toMatchObject({ code: 4001 })
  await until(
    () => engine.windowCount(),
    (n) => n === windows,
    'the secure window closes with the request',
  )
}

const hasVisibilityV2 = (engine: Engine) => engine.run<boolean>('frame', `return 'isVisible' in IntersectionObserverEntry.prototype`)

describe.each(requestedEngines())('%s: clickjacking', (name) => {
  const launch = useEngine(name)

  for (const how of ['clip-path', 'mask-image'] as const)
    it(`a transaction of 9 ETH with the frame cropped by ${how} to its buttons row: no Confirm in the frame, nothing sent by the click`, async () => {
      const engine = await launch()
      const address = await signUp(engine)
      expect(await hasVisibilityV2(engine)).toBe(false)
      const sending = startRequest(engine, 'eth_sendTransaction', [{ from: address, to: attacker, value: nineEth }])
      await engine.waitFor('frame', 'text=Confirm Transaction')
      await cropToButtons(engine, how)
      await onlyTheWindowConfirms(engine, `clickjacking-${how}`, sending, {
        selector: '[data-testid=confirm-to]',
        text: '0x00000000000000000000000000000000000a77Ac',
      })
    })

  it('a frame sized to 360×64 before the request: no Confirm, for a transaction or a message', async () => {
    const engine = await launch()
    const address = await signUp(engine)
    await styleSheet(engine, `${frameElement} { width: 360px !important; height: 64px !important; inset: auto 0 0 auto !important; }`)
    const sending = startRequest(engine, 'eth_sendTransaction', [{ from: address, to: attacker, value: nineEth }])
    await onlyTheWindowConfirms(engine, 'clickjacking-small-frame-transaction', sending, {
      selector: '[data-testid=confirm-to]',
      text: '0x00000000000000000000000000000000000a77Ac',
    })
    const signing = startRequest(engine, 'personal_sign', ['0x68656c6c6f', address])
    await onlyTheWindowConfirms(engine, 'clickjacking-small-frame-message', signing, { selector: '[data-testid=confirm-message]', text: 'hello' })
  })

  const held: [string, string][] = [
    ['opacity 0.999', 'opacity: 0.999'],
    ['a page overlay with pointer-events: none', ''],
  ]
  for (const [variant, css] of held)
    it(`a plain-text message under ${variant}: no Confirm in the frame, nothing signed by the click`, async () => {
      const engine = await launch()
      const address = await signUp(engine)
      const signing = startRequest(engine, 'personal_sign', ['0x68656c6c6f', address])
      await engine.waitFor('frame', 'text=Sign Message')
      if (css) await style(engine, css)
      else
        await engine.run(
          'page',
          `const cover = document.createElement('div')
          cover.textContent = 'Claim your prize'
          cover.style.cssText = 'position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:#fff;font-size:40px'
          document.body.append(cover)
          return true`,
        )
      await onlyTheWindowConfirms(engine, `clickjacking-${css ? 'opacity' : 'overlay'}`, signing, { selector: '[data-testid=confirm-message]', text: 'hello' })
    })
})
