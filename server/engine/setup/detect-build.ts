import { posix } from 'node:path';
import type { DetectedBuild, Part, Root } from './detect-rule';

const show = (argv: readonly string[]): string => argv.join(' ');

const overridable = 'a buildCommand given with the task replaces it';

const buildStep = (argv: readonly string[], why: string): DetectedBuild => ({
  argv,
  reason: `${why} → before the tests of every run: ${show(argv)} (${overridable})`,
});

const makefiles = ['GNUmakefile', 'makefile', 'Makefile'];

/**
 * CMake, else Meson, else a Makefile: one build system per root. A Makefile counts only where no
 * other ecosystem is at the root (`others`): Python, Node and Go projects often keep one for
 * chores, whose default target is no build. A test command that is `make` builds what it tests
 * (its targets' prerequisites), so such a project needs no setup and no build step.
 */
export function detectCompiled(
  root: Root,
  others: readonly Part[],
  testCommand: readonly string[] | undefined,
): Part {
  if (root.has('CMakeLists.txt')) return detectCmake(root);
  if (root.has('meson.build')) return detectMeson(root);
  const makefile = root.present(...makefiles)[0];
  if (makefile === undefined || others.some((p) => p.reasons.length > 0)) return { reasons: [] };
  if ((testCommand?.[0] ?? '').split('/').at(-1) === 'make') {
    return {
      reasons: [`${makefile} → nothing to set up: the test command (make) builds what it tests`],
    };
  }
  const make = ['make'];
  return {
    commands: [make],
    manifests: [makefile],
    build: buildStep(make, `${makefile}: setup builds in the tree`),
    reasons: [`${makefile} → ${show(make)}`],
  };
}

function detectCmake(root: Root): Part {
  const configure = ['cmake', '-S', '.', '-B', 'build'];
  const build = ['cmake', '--build', 'build'];
  return {
    commands: [configure, build],
    outputs: ['build'],
    manifests: root.tree.files
      .filter((f) => posix.basename(f) === 'CMakeLists.txt' || f.endsWith('.cmake'))
      .sort(),
    build: buildStep(build, 'CMakeLists.txt: setup builds into build/'),
    reasons: [`CMakeLists.txt → ${show(configure)}; ${show(build)}`],
  };
}

function detectMeson(root: Root): Part {
  const configure = ['meson', 'setup', 'build'];
  const build = ['meson', 'compile', '-C', 'build'];
  return {
    commands: [configure, build],
    outputs: ['build'],
    manifests: root.tree.files
      .filter((f) =>
        ['meson.build', 'meson_options.txt', 'meson.options'].includes(posix.basename(f)),
      )
      .sort(),
    build: buildStep(build, 'meson.build: setup builds into build/'),
    reasons: [`meson.build → ${show(configure)}; ${show(build)}`],
  };
}
