import type { LaunchOptions } from '@playwright/test'

/**
 * Playwright 1.65 passes `--disable-features=…,ThirdPartyStoragePartitioning,…`, which makes
 * IndexedDB throw in a cross-site iframe. Chromium honours the last --disable-features switch, so
 * repeat Playwright's list without that entry (from playwright-core's chromiumSwitches; re-check
 * when upgrading Playwright). `blocked.test` maps to loopback: an origin the demo app does not allow.
 */
const disabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
]

export const chromiumLaunch: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--disable-features=${disabledFeatures.join(',')}`,
    '--host-resolver-rules=MAP blocked.test 127.0.0.1',
  ],
}

/**
 * Chromium as Playwright launches it by default: its `--disable-features` list includes
 * ThirdPartyStoragePartitioning, so the cross-site wallet frame may not use IndexedDB (as in
 * browsers and enterprise policies that block third-party storage). The storage-blocked project.
 */
export const chromiumStorageBlocked: LaunchOptions = {
  ...chromiumLaunch,
  args: chromiumLaunch.args!.filter((arg) => !arg.startsWith('--disable-features=')),
}
