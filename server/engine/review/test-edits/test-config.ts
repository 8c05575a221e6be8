/** Files that configure how tests are collected or run. */

import { cmakeWhats, gradleProjection, mavenProjection, viteProjection } from './build-files';
import { goConstraintWhats } from './go';
import { packageJsonProjection } from './package-json';
import { narrowingOptions, pytestish } from './pytest-options';
import { baseName, extensionOf } from './test-paths';
import { addedLines, fileVerb, isBinary, multisetDiff } from './text';
import {
  anyOf,
  cargoKeys,
  iniProjection,
  pyprojectKeys,
  setupCfgSections,
  tomlProjection,
  toxSections,
} from './toml-ini';

/** Files whose every change counts. Matched against the path's tail. */
export const wholeConfigFiles: readonly RegExp[] = [
  /(?:^|\/)\.?pytest\.(?:ini|toml)$/, // pytest (`pytest.toml` since pytest 9)
  /(?:^|\/)conftest\.py$/, // pytest hooks and fixtures, any directory
  /(?:^|\/)noxfile\.py$/,
  /(?:^|\/)(?:jest|vitest)\.(?:config|setup)\.[\w.]+$/,
  /(?:^|\/)vitest\.workspace\.[\w.]+$/,
  /(?:^|\/)setupTests\.[jt]sx?$/, // Create React App's setup file
  /(?:^|\/)\.mocharc(?:\.\w+)?$/,
  /(?:^|\/)karma\.conf(?:ig)?\.[\w.]+$/,
  /(?:^|\/)ava\.config\.[\w.]+$/,
  /(?:^|\/)(?:playwright|cypress)\.config\.[\w.]+$/,
  /(?:^|\/)phpunit(?:\.dist)?\.xml(?:\.dist)?$/,
  /(?:^|\/)\.rspec$/,
  /(?:^|\/)CTest(?:Testfile|Custom)\.cmake$/,
  /(?:^|\/)\.config\/nextest\.toml$/,
  /(?:^|\/)\.nextest\.toml$/,
  /(?:^|\/)\.cargo\/config(?:\.toml)?$/,
];

function wholeConfigWhat(path: string, before: string | null, after: string | null): string {
  const options = pytestish.test(baseName(path)) ? narrowingOptions(addedLines(before, after)) : [];
  return options.length > 0
    ? `${path} adds ${options.join(', ')}`
    : `${path} ${fileVerb(before, after)}`;
}

/** Labels whose lines differ, in words, naming pytest-narrowing options a change adds. */
function compareProjections(
  path: string,
  before: Map<string, string[]> | null,
  after: Map<string, string[]> | null,
): string[] {
  const whats: string[] = [];
  const labels = new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])]);
  for (const label of labels) {
    const was = before?.get(label);
    const now = after?.get(label);
    if (was !== undefined && now !== undefined && was.join('\n') === now.join('\n')) continue;
    const verb = was === undefined ? 'added' : now === undefined ? 'removed' : 'changed';
    const options = pytestish.test(label)
      ? narrowingOptions(multisetDiff(was ?? [], now ?? []).added)
      : [];
    whats.push(
      `${label} ${verb} in ${path}${options.length > 0 ? ` (adds ${options.join(', ')})` : ''}`,
    );
  }
  return whats;
}

type Projection = (text: string) => Map<string, string[]> | null;

/** Files that count only where their test settings changed, by how those are read. */
export function projectionFor(path: string): Projection | null {
  const name = baseName(path);
  if (name === 'pyproject.toml') return (text) => tomlProjection(text, anyOf(pyprojectKeys));
  if (name === 'Cargo.toml') return (text) => tomlProjection(text, anyOf(cargoKeys));
  if (name === 'tox.ini') return (text) => iniProjection(text, toxSections);
  if (name === 'setup.cfg') return (text) => iniProjection(text, setupCfgSections);
  if (name === 'package.json') return packageJsonProjection;
  if (name === 'pom.xml') return mavenProjection;
  if (/\.gradle(?:\.kts)?$/.test(name)) return gradleProjection;
  if (/^vite\.config\.[\w.]+$/.test(name)) return viteProjection;
  return null;
}

export const isCmake = (path: string): boolean => {
  const name = baseName(path);
  return name === 'CMakeLists.txt' || name.endsWith('.cmake');
};

/** How a change alters test configuration, in words; empty when it does not. */
export function configWhats(path: string, before: string | null, after: string | null): string[] {
  if (wholeConfigFiles.some((re) => re.test(path))) return [wholeConfigWhat(path, before, after)];
  const projection = projectionFor(path);
  const binary = [before, after].some((text) => text !== null && isBinary(text));
  if ((projection !== null || isCmake(path)) && binary) {
    // A configuration file that is not text cannot be read for its test settings: it counts.
    return [`${path} ${fileVerb(before, after)} (not text)`];
  }
  if (projection !== null) {
    const was = before === null ? new Map<string, string[]>() : projection(before);
    const now = after === null ? new Map<string, string[]>() : projection(after);
    if (was === null || now === null) {
      return [`${path} ${fileVerb(before, after)} and cannot be read as JSON`];
    }
    return compareProjections(path, was, now);
  }
  if (isCmake(path)) return cmakeWhats(path, before, after);
  if (extensionOf(path) === 'go' && before !== null && after !== null && !binary) {
    return goConstraintWhats(path, before, after);
  }
  return [];
}
