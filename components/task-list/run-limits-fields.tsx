import { Field } from './form-field';

export type RunLimitField = 'maxMemoryMb' | 'maxPids' | 'maxDiskMb' | 'maxInodes';
export type RunLimitValues = Record<RunLimitField, string>;

export const emptyRunLimits: RunLimitValues = {
  maxMemoryMb: '',
  maxPids: '',
  maxDiskMb: '',
  maxInodes: '',
};

const inputs: readonly { name: RunLimitField; label: string; min: number; hint: string }[] = [
  { name: 'maxMemoryMb', label: 'Memory (MB)', min: 16, hint: 'All processes of a run together.' },
  { name: 'maxPids', label: 'Processes', min: 8, hint: 'Alive at once in a run.' },
  { name: 'maxDiskMb', label: 'Disk (MB)', min: 1, hint: 'What a run may write.' },
  { name: 'maxInodes', label: 'Files', min: 100, hint: 'Files a run may create.' },
];

/** The caps a form filled in, as numbers; an empty field is left out (the server's default). */
export function runLimitsOf(values: RunLimitValues): Partial<Record<RunLimitField, number>> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value.trim() !== '')
      .map(([name, value]) => [name, Number(value)]),
  );
}

/**
 * Optional resource caps of each test run of the task; empty fields take the server's defaults,
 * which are also the most a task may ask.
 */
export function RunLimitsFields({
  values,
  errors,
  onChange,
}: {
  readonly values: RunLimitValues;
  readonly errors: Partial<Record<RunLimitField, string>>;
  readonly onChange: (values: RunLimitValues) => void;
}) {
  return (
    <details
      className="run-limits"
      open={inputs.some(({ name }) => errors[name] !== undefined) ? true : undefined}
    >
      <summary>Resource caps per run (optional)</summary>
      <div className="field-row">
        {inputs.map(({ name, label, min, hint }) => (
          <Field key={name} id={`create-${name}`} label={label} hint={hint} error={errors[name]}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={min}
                placeholder="server default"
                value={values[name]}
                onChange={(event) => onChange({ ...values, [name]: event.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
    </details>
  );
}
