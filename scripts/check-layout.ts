/**
 * The layout check (`npm run lint:layout`): the repo's structural rules, checked so they cannot regress.
 *
 * - Import rules, in .dependency-cruiser.cjs and checked by dependency-cruiser: no import circle in the
 *   product folders, the direction in which they may import each other, no fixture in production code.
 * - Test-support naming: a module that only tests use is named `*.fixture.ts(x)` next to the code it
 *   supports; no `test-*.ts(x)` file and no `test/` folder outside e2e/.
 * - Citations: no comment or doc cites a product document that the repo does not hold; the rule it
 *   cites is stated where it is used, or in the repo's own docs.
 *
 * `npx tsx scripts/check-layout.ts [folder]` checks the repo (or the git work tree at folder), prints one
 * line per violation and exits with 1 if there is any. Files are those git knows or would add (tracked
 * and untracked, not ignored) that exist on disk.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ICruiseResult, IViolation } from 'dependency-cruiser'

export type Violation = { rule: string; where: string; message: string }

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const productFolders = ['bridge', 'host-sdk', 'sdk', 'widget', 'sandbox']
const importRules = join(repoRoot, '.dependency-cruiser.cjs')
const dependencyCruiser = join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')

/** The product documents the repo does not hold (kept by the product side, outside the repo). */
const lackedDocuments = ['SPEC', 'DESIGN', 'PROTOCOL', 'TOOLCHAIN', 'REDTEAM', 'STYLE']
const citation = new RegExp(`\\b(${lackedDocuments.join('|')})\\.md\\b`)

/** Paths relative to root (with `/`) that git tracks or would add, and that exist on disk. */
function listFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  const files = new Set(out.split('\0').filter((file) => file !== ''))
  return [...files].filter((file) => existsSync(join(root, file))).sort()
}

function importViolation(violation: IViolation, comments: Map<string, string>): Violation {
  const rule = violation.rule.name
  if (violation.cycle) {
    // The cycle runs from the module after `from` back to `from`.
    const circle = [violation.from, ...violation.cycle.map((step) => step.name)]
    return { rule, where: violation.from, message: `import circle: ${circle.join(' → ')}` }
  }
  return { rule, where: violation.from, message: `imports ${violation.to}. ${comments.get(rule) ?? ''}`.trim() }
}

/**
 * The import rules, checked by dependency-cruiser's own command in Node itself (not under tsx: see
 * .dependency-cruiser.cjs), over the product folders at root; paths in its rules are relative to root.
 */
function checkImports(root: string): Violation[] {
  const folders = productFolders.filter((folder) => existsSync(join(root, folder)))
  if (folders.length === 0) return []
  const json = execFileSync(process.execPath, [dependencyCruiser, '--config', importRules, '--output-type', 'json', ...folders], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 512 << 20,
  })
  const result = JSON.parse(json) as ICruiseResult
  // Without a TypeScript parser dependency-cruiser reads no .ts module, and the rules would pass unseen.
  if (!result.modules.some((module) => /\.tsx?$/.test(module.source) && module.dependencies.length > 0)) {
    throw new Error(`dependency-cruiser read no import from a TypeScript module under ${folders.join(', ')}: is @swc/core installed?`)
  }
  const comments = new Map((result.summary.ruleSetUsed?.forbidden ?? []).map((rule) => [rule.name ?? '', rule.comment ?? '']))
  // dependency-cruiser names each circle once, from one of its modules.
  return result.summary.violations.map((violation) => importViolation(violation, comments))
}

function checkNaming(files: string[]): Violation[] {
  const rule = 'test-support-naming'
  return files
    .filter((file) => !file.startsWith('e2e/'))
    .flatMap((file) => {
      if (/(^|\/)test-[^/]*\.tsx?$/.test(file)) {
        return [{ rule, where: file, message: 'a test-* module outside e2e/: name a module only tests use *.fixture.ts(x), next to the code it supports' }]
      }
      if (/(^|\/)test\//.test(file)) {
        return [{ rule, where: file, message: 'a test/ folder outside e2e/: a module only tests use is *.fixture.ts(x), next to the code it supports' }]
      }
      return []
    })
}

function checkCitations(root: string, files: string[]): Violation[] {
  const violations: Violation[] = []
  for (const file of files) {
    const path = join(root, file)
    if (!statSync(path).isFile()) continue
    const text = readFileSync(path, 'utf8')
    if (text.includes('\0') || !citation.test(text)) continue
    text.split('\n').forEach((line, index) => {
      const match = citation.exec(line)
      if (match) {
        violations.push({
          rule: 'no-lacked-doc-citation',
          where: `${file}:${index + 1}`,
          message: `cites ${match[0]}, which is not in the repo: state the rule itself here, or point to a doc the repo holds`,
        })
      }
    })
  }
  return violations
}

/** Every violation of the layout rules in the git work tree at root. */
export function checkLayout(root: string): Violation[] {
  const files = listFiles(root)
  return [...checkImports(root), ...checkNaming(files), ...checkCitations(root, files)]
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const violations = checkLayout(resolve(process.argv[2] ?? repoRoot))
  for (const { rule, where, message } of violations) console.log(`${rule}  ${where}  ${message}`)
  const counts = new Map<string, number>()
  for (const { rule } of violations) counts.set(rule, (counts.get(rule) ?? 0) + 1)
  const perRule = [...counts].map(([rule, count]) => `${rule} ${count}`).join(', ')
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    violations.length === 0 ? `Layout check: no violation (${seconds} s)` : `Layout check: ${violations.length} violations (${perRule}; ${seconds} s)`,
  )
  process.exitCode = violations.length === 0 ? 0 : 1
}
