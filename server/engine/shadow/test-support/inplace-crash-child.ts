// Runs one slow in-place hypothesis, so a test can kill -9 this process mid-run and check that the
// next runner's start-up sweep restores the workspace.
import { createShadowRunner } from '../create-shadow-runner';
import { pytestCalc } from '../../../test-support/inline-projects';

const [dataDir, workspace] = process.argv.slice(2);
if (dataDir === undefined || workspace === undefined) throw new Error('usage: DATA_DIR WORKSPACE');
const runner = await createShadowRunner({ dataDir, mode: 'inplace' });
await runner.run({
  workspace,
  command: ['python3', '-c', 'import time; time.sleep(5)'],
  hypotheses: [
    {
      name: 'slow',
      edits: [
        { path: 'calc.py', content: pytestCalc.fixed },
        { path: 'new/file.py', content: 'x = 1\n' },
      ],
      delete: ['test_calc.py'],
    },
  ],
});
