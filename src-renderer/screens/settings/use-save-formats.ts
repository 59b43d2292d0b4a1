/** Saves a formats draft: the user's preferences through `PATCH /v1/users/me`, then this browser's number format. */
import { userRoutes } from '../../../src-shared/contract/users';
import { useWrite } from '../../data/use-write';
import { useNumberFormat } from '../../stores/number-format';
import type { FormatsDraft } from './formats';

export function useSaveFormats(): { save(draft: FormatsDraft): Promise<void>; pending: boolean } {
  const update = useWrite(userRoutes.updateMe);
  const setNumberFormat = useNumberFormat((s) => s.set);
  return {
    pending: update.isPending,
    async save(draft) {
      const { locale, dateFormat, timezone, timeFormat, weekStartsOnMonday } = draft;
      await update.mutateAsync({ body: { locale, dateFormat, timezone, timeFormat, weekStartsOnMonday } });
      setNumberFormat(draft.numberFormat);
    },
  };
}
