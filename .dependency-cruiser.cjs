// The import rules of the layout check (`npm run lint:layout`, scripts/check-layout.ts), checked by
// dependency-cruiser over the folders that ship or serve code: bridge/, host-sdk/, sdk/, widget/,
// sandbox/ and examples/. Paths are relative to the repository root. The naming and citation rules
// of the same check are in scripts/check-layout.ts (they are about file names and text, not imports).

// dependency-cruiser parses TypeScript with swc (TypeScript 7 has no JavaScript API it can load) but
// never turns on swc's JSX syntax, so a .tsx file fails to parse. It calls this same @swc/core module
// object: turn JSX on for .tsx files here. Run it with Node itself (`npx depcruise`, or
// scripts/check-layout.ts, which does): under tsx, dependency-cruiser does not find swc's Visitor.
// The check's test has a .tsx file in every tree it checks: should this stop working, the test fails.
const swc = require('@swc/core')
const parseFileSync = swc.parseFileSync
swc.parseFileSync = (file, options) => parseFileSync(file, { ...options, syntax: 'typescript', tsx: file.endsWith('.tsx') })

const products = '^(bridge|host-sdk|sdk|widget|sandbox)/'
// Test code and its support: tests, fixtures, test configurations, and the two folders that hold
// only tooling (browser suites and scripts).
const testSupport = '(\\.test\\.tsx?$|\\.fixture\\.tsx?$|\\.config\\.ts$|^e2e/|^scripts/)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circle in the product folders, type-only imports included: a circle makes the load order decide what a module sees, and the layers stop reading one way.',
      severity: 'error',
      from: { path: products },
      to: { circular: true },
    },
    {
      name: 'sdk-bridge-stand-alone',
      comment:
        'sdk/ (service clients that run in browsers and in Node) and bridge/ (the contract the host and the frame share) import nothing from host-sdk/, widget/ or sandbox/ (their tests may start the real sandbox).',
      severity: 'error',
      from: { path: '^(sdk|bridge)/', pathNot: '\\.(test|node\\.test|fixture)\\.tsx?$' },
      to: { path: '^(host-sdk|widget|sandbox)/' },
    },
    {
      name: 'host-not-frame',
      comment: 'host-sdk/ runs in the dapp page: it meets the wallet frame only through bridge/, and never loads the frame (widget/) or the sandbox.',
      severity: 'error',
      from: { path: '^host-sdk/' },
      to: { path: '^(widget|sandbox)/' },
    },
    {
      name: 'frame-not-host',
      comment: 'widget/ is the wallet frame on the provider origin: it meets the host page only through bridge/, and never loads host-sdk/ or the sandbox.',
      severity: 'error',
      from: { path: '^widget/' },
      to: { path: '^(host-sdk|sandbox)/' },
    },
    {
      name: 'sandbox-layers',
      comment: "The sandbox's http/ toolkit, contracts/ and infra/ sit below its services: they import nothing from sandbox/services/.",
      severity: 'error',
      from: { path: '^sandbox/(http|contracts|infra)/' },
      to: { path: '^sandbox/services/' },
    },
    {
      name: 'no-fixture-in-production',
      comment: 'A *.fixture.ts(x) module supports tests only: production code never imports one (tests, fixtures, test configs, e2e/ and scripts/ may).',
      severity: 'error',
      from: { pathNot: testSupport },
      to: { path: '\\.fixture\\.tsx?$' },
    },
  ],
  options: {
    parser: 'swc',
    // Keep `import type` edges: a circle made of type imports is still a circle.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
}
