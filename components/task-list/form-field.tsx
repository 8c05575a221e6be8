import type { ReactNode } from 'react';

export interface FieldControlProps {
  readonly id: string;
  readonly 'aria-describedby': string | undefined;
  readonly 'aria-invalid': boolean | undefined;
}

/**
 * A labelled form control with its hint and its error, both tied to it with aria-describedby so a
 * screen reader reads them with the field. The error is the server's message, shown as given.
 */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  readonly id: string;
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error: string | undefined;
  readonly children: (control: FieldControlProps) => ReactNode;
}) {
  const hintId = hint === undefined ? null : `${id}-hint`;
  const errorId = error === undefined ? null : `${id}-error`;
  const describedBy = [hintId, errorId].filter((part) => part !== null).join(' ');
  return (
    <div className={`field${error === undefined ? '' : ' has-error'}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-describedby': describedBy === '' ? undefined : describedBy,
        'aria-invalid': error === undefined ? undefined : true,
      })}
      {hintId === null ? null : (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {errorId === null ? null : (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
