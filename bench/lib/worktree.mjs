import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const WORKSPACES = ['packages/shared', 'apps/server', 'apps/sandboxes', 'apps/web'];

function run(command, args, cwd) {
  const outcome = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (outcome.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${outcome.stdout}${outcome.stderr}`);
  return outcome.stdout.trim();
}

/** The commit a ref names in the repository of `root`. */
export function resolveRef(root, ref) {
  return run('git', ['rev-parse', '--verify', `${ref}^{commit}`], root);
}

/**
 * A checkout of `ref` in `dir` (`git worktree add --detach`: the repository's branches, index
 * and work tree are left as they are), with its dependencies installed (`installDependencies`).
 */
export function addWorktree(root, ref, dir, install = 'auto') {
  run('git', ['worktree', 'add', '--detach', dir, ref], root);
  return installDependencies(root, dir, install);
}

export function removeWorktree(root, dir) {
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, encoding: 'utf8' });
  spawnSync('git', ['worktree', 'prune'], { cwd: root, encoding: 'utf8' });
}

/**
 * `link` reuses this checkout's installed packages: each entry of node_modules (and of each
 * workspace's own) is a symlink to it, but the workspace packages (`@tunes/*`) point into the
 * worktree's own folders, so the other build never loads this one's code. It is right only when
 * both lockfiles are the same; `auto` links then and otherwise runs `npm ci` in the worktree
 * (`ci` always does). Answers how it was done.
 */
export function installDependencies(root, tree, install = 'auto') {
  const sameLock =
    readFileSync(path.join(root, 'package-lock.json'), 'utf8') ===
    readFileSync(path.join(tree, 'package-lock.json'), 'utf8');
  const how = install === 'auto' ? (sameLock ? 'link' : 'ci') : install;
  if (how === 'ci') {
    run('npm', ['ci', '--no-audit', '--no-fund'], tree);
    return 'npm ci';
  }
  const modules = path.join(tree, 'node_modules');
  mkdirSync(path.join(modules, '@tunes'), { recursive: true });
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry !== '@tunes') symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  for (const entry of readdirSync(path.join(root, 'node_modules/@tunes'))) {
    // Relative links (`../../apps/server`) resolve inside the worktree.
    const target = readlinkSync(path.join(root, 'node_modules/@tunes', entry));
    symlinkSync(target, path.join(modules, '@tunes', entry));
  }
  for (const workspace of WORKSPACES) {
    const own = path.join(root, workspace, 'node_modules');
    if (existsSync(own) && existsSync(path.join(tree, workspace)))
      symlinkSync(own, path.join(tree, workspace, 'node_modules'));
  }
  return sameLock ? 'linked' : 'linked (lockfiles differ: BENCH_AB_INSTALL=link)';
}
