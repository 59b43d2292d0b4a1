/**
 * A form's values and its errors by field: `set(field)` is an input's onChange that keeps what was typed and takes
 * that field's error away, as every form of the app behaves.
 */
import { useState } from 'react';
import type { FieldErrors } from './field-errors';

export function useFormState<V extends object>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set =
    (field: keyof V & string) =>
    (e: { target: { value: string } }): void => {
      const value = e.target.value;
      setValues((v) => ({ ...v, [field]: value }));
      if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
    };
  return { values, setValues, errors, setErrors, set };
}
