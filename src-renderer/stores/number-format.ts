/**
 * The number format (digit grouping and decimal mark) chosen in Settings, kept in this browser. The user record
 * (`/v1/users/me`) has the locale, date format, time zone and clock but no number format, so this one choice lives
 * beside the theme until the API carries it; "locale" (the default) uses the locale's own separators.
 */
import { create } from 'zustand';
import { NUMBER_FORMATS, type NumberFormatChoice } from '../lib/format';

const STORAGE_KEY = 'finops.numberFormat';

function stored(): NumberFormatChoice {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return (NUMBER_FORMATS as readonly string[]).includes(v ?? '') ? (v as NumberFormatChoice) : 'locale';
  } catch {
    return 'locale';
  }
}

interface NumberFormatState {
  choice: NumberFormatChoice;
  set(choice: NumberFormatChoice): void;
}

export const useNumberFormat = create<NumberFormatState>((set) => ({
  choice: stored(),
  set(choice) {
    try {
      if (choice === 'locale') globalThis.localStorage?.removeItem(STORAGE_KEY);
      else globalThis.localStorage?.setItem(STORAGE_KEY, choice);
    } catch {}
    set({ choice });
  },
}));
