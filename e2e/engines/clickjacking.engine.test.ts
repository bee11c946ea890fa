import { describe, expect, it } from 'vitest'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { frameElement, type Outcome, pending, signUp, startRequest, until, useEngine } from './flows.ts'
import { shortly } from './locate.ts'

/**
 * The host page styling the wallet frame's element to bait a click onto Confirm (the Chromium
 * suite's clickjacking variants). These engines have no IntersectionObserver v2: the frame cannot
 * tell what the page does to it, so it never shows Confirm at all. Whatever the page does, the
 * victim's click on the frame's primary button only opens the secure window (a top-level window
 * the page cannot style), and nothing is signed or sent by it. Also the Chromium red-team case of
 * the mount window (e2e/redesign-attack.spec.ts): the page forces the frame visible before its UI
 * has drawn anything, and clicks where the primary button will be from before the request on.
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

  it("a message asked right after a reload, the frame forced visible and full-page before it drew anything, its primary button's spot clicked from the start: nothing signed", async ({
    annotate,
  }) => {
    const engine = await launch()
    const address = await signUp(engine)
    expect(await hasVisibilityV2(engine)).toBe(false)
    // Where the frame's primary button shows for a message, learnt once (then answered 4001 by closing).
    const learning = startRequest(engine, 'personal_sign', ['0x68656c6c6f', address])
    await engine.waitFor('frame', 'text=Sign Message')
    await engine.waitFor('frame', primary)
    const spot = await engine.run<{ x: number; y: number }>(
      'frame',
      `const r = document.querySelector(args[0]).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }`,
      primary,
    )
    await engine.run('page', `window.WalletKit.kit.close(); return true`)
    expect(await learning).toMatchObject({ code: 4001 })

    // A fresh page: the stored session answers at once, and the frame has drawn nothing yet. The page
    // forces the frame's element shown where the kit shows it, over all, and puts a bait of its own
    // under the spot: the driver's pointer goes to the bait, and its clicks land on the frame above.
    await engine.reload()
    await styleSheet(
      engine,
      `${frameElement} { display: block !important; position: fixed !important; inset: 0 !important; width: 100% !important; height: 100% !important; border: 0 !important; z-index: 2147483647 !important; opacity: 1 !important; visibility: visible !important; }`,
    )
    await engine.run(
      'page',
      `const bait = document.createElement('div')
      bait.id = 'bait'
      bait.style.cssText = 'position:fixed;left:' + (args[0].x - 4) + 'px;top:' + (args[0].y - 4) + 'px;width:8px;height:8px;z-index:1'
      window.baitClicks = 0
      bait.addEventListener('click', () => window.baitClicks++)
      document.body.append(bait)
      return true`,
      spot,
    )
    // Every press the frame's document receives (a disabled button takes no click, but the press
    // still reaches the document), and whether it had drawn its dialog then.
    const drawn = await engine.run<boolean>(
      'frame',
      `window.clicksSeen = []
      addEventListener('pointerdown', (e) => window.clicksSeen.push({ trusted: e.isTrusted, dialog: !!document.querySelector('.wk-dialog') }), true)
      return !!document.querySelector('.wk-dialog')`,
    )
    expect(drawn, 'the frame drew a dialog before any request').toBe(false)
    const windows = await engine.windowCount()
    // The pointer rests on the spot and clicks before the request, then from the request on.
    await engine.click('page', '#bait')
    const signing = startRequest(engine, 'personal_sign', ['0x68656c6c6f', address])
    let afterButton = 0
    let confirmSeen = false
    const deadline = Date.now() + 30_000
    for (;;) {
      await engine.click('page', '#bait')
      const seen = await engine.run<{ button: boolean; confirm: boolean }>(
        'frame',
        `return { button: !!document.querySelector(args[0]), confirm: [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Confirm') }`,
        primary,
      )
      confirmSeen ||= seen.confirm
      if (seen.button) afterButton++
      if (afterButton >= 2 || (await engine.windowCount()) > windows) break
      expect(Date.now(), 'the frame never showed the request').toBeLessThan(deadline)
    }
    const clicks = await engine.run<{ trusted: boolean; dialog: boolean }[]>('frame', `return window.clicksSeen`)
    const opened = (await engine.windowCount()) > windows
    await annotate(
      `${clicks.length} presses reached the frame, ${clicks.filter((c) => !c.dialog).length} before it drew its dialog; a secure window opened: ${opened}`,
    )
    await engine.screenshot('page', 'clickjacking-mount-window')

    // No Confirm in the frame at any point, and whatever the clicks did, no signature came of them.
    expect(confirmSeen, 'a Confirm showed in the frame').toBe(false)
    await shortly(1_500)
    expect(await pending(signing), 'the request was answered').toBe(true)
    await engine.waitFor('frame', 'text=Confirm', { hidden: true, timeout: 1_000 })
    // The clicks reached the frame (none the page's bait), the first of them before it drew anything.
    expect(await engine.run<number>('page', `return window.baitClicks`)).toBe(0)
    expect(clicks.length).toBeGreaterThanOrEqual(2)
    expect(clicks.every((c) => c.trusted)).toBe(true)
    expect(clicks[0]?.dialog).toBe(false)
    await engine.run('page', `window.WalletKit.kit.close(); return true`)
    expect(await signing).toMatchObject({ code: 4001 })
    await until(
      () => engine.windowCount(),
      (n) => n === windows,
      'a secure window the clicks opened closes with the request',
    )
  })
})
