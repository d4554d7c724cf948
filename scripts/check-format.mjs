// The formatting check of `npm test`: every web, test and script source must be as Prettier
// writes it (.prettierrc, .prettierignore) and every C++ file as clang-format writes it
// (.clang-format). One check per file; each file that is off is named, with the command that
// fixes it. Ends with "format: N passed, N failed".
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Tracked files and new ones not ignored, so a new file is checked before it is committed.
function files(patterns) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\n').filter(Boolean))].sort();
}

const web = files(['web/*.ts', 'web/*.css', 'web/*.html', 'tests/*.mjs', 'scripts/*.mjs']);
const cpp = files(['*.cpp', '*.hpp', '*.h']);
const failures = [];

// Prettier: --list-different prints the files it would change (ignored files are skipped).
const prettier = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--list-different', ...web],
  { cwd: root, encoding: 'utf8' },
);
if (prettier.error || (prettier.status !== 0 && prettier.status !== 1)) {
  console.error(`prettier did not run: ${prettier.error?.message ?? prettier.stderr}`);
  failures.push('prettier');
} else {
  for (const file of prettier.stdout.split('\n').filter(Boolean)) {
    console.log(`not formatted: ${file} (fix: npx prettier --write ${file})`);
    failures.push(file);
  }
}

// clang-format: --dry-run reports each change as "<file>:<line>:<col>: ... [-Wclang-format-violations]".
const clang = spawnSync('clang-format', ['--dry-run', ...cpp], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
if (clang.error || clang.status !== 0) {
  console.error(`clang-format did not run: ${clang.error?.message ?? clang.stderr} (apt-get install clang-format)`);
  failures.push('clang-format');
} else {
  const off = new Set();
  for (const line of clang.stderr.split('\n')) {
    const m = line.match(/^(.+?):\d+:\d+: (?:warning|error): code should be clang-formatted/);
    if (m) off.add(path.relative(root, path.resolve(root, m[1])));
  }
  for (const file of off) {
    console.log(`not formatted: ${file} (fix: clang-format -i ${file})`);
    failures.push(file);
  }
}

const checked = web.length + cpp.length;
const failed = failures.length;
console.log(`checked ${web.length} web/test/script files with Prettier and ${cpp.length} C++ files with clang-format`);
console.log(`format: ${Math.max(0, checked - failed)} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
