import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A tree of code the frame comparison measures: the work tree itself, or a git ref checked out beside it. */
export type Tree = {
  /** What the table calls it: the ref as given, or "work tree". */
  readonly label: string
  /** The commit measured (the work tree's HEAD, plus "+ changes" when it has uncommitted ones). */
  readonly commit: string
  readonly dir: string
  remove(): void
}

/** The repository this file is in. */
export const root = fileURLToPath(new URL('../../..', import.meta.url))

const git = (args: string[], cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

/** The repository's own work tree, as it is (`npm run bench` has just built its dist/). */
export function workTree(): Tree {
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== ''
  return { label: 'work tree', commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' + changes' : ''}`, dir: root, remove: () => {} }
}

/**
 * `ref` checked out in a git worktree of its own under the temp folder, with this repository's
 * node_modules linked in and built there (its own build script, its own dist/; not the example
 * pages, which the comparison does not load). The folder and the worktree entry are removed by
 * `remove()`, also when the build fails.
 */
export function checkOut(ref: string, log: (line: string) => void): Tree {
  const commit = git(['rev-parse', '--verify', '--short', `${ref}^{commit}`])
  const dir = join(mkdtempSync(join(tmpdir(), 'wallet-kit-bench-tree-')), commit)
  const remove = () => {
    try {
      if (existsSync(dir)) git(['worktree', 'remove', '--force', dir])
    } catch (error) {
      log(`could not remove the worktree ${dir}: ${(error as Error).message.split('\n')[0]}`)
    }
    rmSync(join(dir, '..'), { recursive: true, force: true })
    git(['worktree', 'prune'])
  }
  try {
    git(['worktree', 'add', '--detach', dir, commit])
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    log(`building ${ref} (${commit}) in ${dir}…`)
    // Its warnings are the tree's own business: shown only if its build fails.
    const build = spawnSync('npx', ['tsx', 'scripts/build.ts', '--quiet', '--no-examples'], { cwd: dir, encoding: 'utf8' })
    if (build.status !== 0) throw new Error(`the build of ${ref} failed:\n${build.stdout}${build.stderr}`)
  } catch (error) {
    remove()
    throw error
  }
  return { label: ref, commit, dir, remove }
}
