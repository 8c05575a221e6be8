import { Field } from './form-field';
import type { SetupField, SetupValues } from './setup-input';

/**
 * How the task's dependencies are installed (once, before the baseline, with network only to
 * allowed hosts), what builds the code before each test run, and which failures to put up with.
 */
export function SetupFields({
  values,
  errors,
  onChange,
}: {
  readonly values: SetupValues;
  readonly errors: Partial<Record<SetupField, string>>;
  readonly onChange: (values: SetupValues) => void;
}) {
  const set = (change: Partial<SetupValues>): void => onChange({ ...values, ...change });
  return (
    <fieldset className="setup-fields">
      <legend>Setup and build (optional)</legend>
      <Field
        id="create-setupCommands"
        label="Setup commands"
        error={errors.setupCommands}
        hint={
          values.noSetup
            ? 'No setup: the tests run on the tree as it is.'
            : 'One command per line (e.g. npm ci), run once before the baseline; only allowed hosts are reachable. Empty: detected from the tree.'
        }
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={3}
            spellCheck={false}
            disabled={values.noSetup}
            value={values.setupCommands}
            onChange={(event) => set({ setupCommands: event.target.value })}
          />
        )}
      </Field>
      <div className="field checkbox">
        <input
          id="create-noSetup"
          type="checkbox"
          checked={values.noSetup}
          onChange={(event) => set({ noSetup: event.target.checked })}
        />
        <label htmlFor="create-noSetup">No setup</label>
      </div>
      <Field
        id="create-buildCommand"
        label="Build command"
        error={errors.buildCommand}
        hint="Runs before the tests in every run, without network, e.g. cmake --build build (optional)."
      >
        {(control) => (
          <input
            {...control}
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={values.buildCommand}
            onChange={(event) => set({ buildCommand: event.target.value })}
          />
        )}
      </Field>
      <Field
        id="create-knownFailures"
        label="Known failures"
        error={errors.knownFailures}
        hint="Test ids that may keep failing, one per line (e.g. a test that needs the network): the task is green without them."
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={2}
            spellCheck={false}
            value={values.knownFailures}
            onChange={(event) => set({ knownFailures: event.target.value })}
          />
        )}
      </Field>
    </fieldset>
  );
}
