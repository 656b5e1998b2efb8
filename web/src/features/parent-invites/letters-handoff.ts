import type { NewInviteView } from '@curbside/domain';

/**
 * The invites just made, handed to the letters page. Their links carry the
 * only copy of each token (the server keeps a hash), so they stay in this
 * tab's sessionStorage: never in a URL, never in localStorage; gone when the
 * tab closes, and shown only to the user who made them.
 */
export interface LetterBatch {
  userId: number;
  schoolName: string;
  madeAt: string;
  invites: NewInviteView[];
}

const KEY = 'curbside-invite-letters';

export const keepLetters = (batch: LetterBatch) => {
  sessionStorage.setItem(KEY, JSON.stringify(batch));
};

/** The batch this user made in this tab, or null. */
export const lettersFor = (userId: number): LetterBatch | null => {
  try {
    const batch = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as LetterBatch | null;
    return batch && batch.userId === userId && Array.isArray(batch.invites) ? batch : null;
  } catch {
    return null;
  }
};

export const forgetLetters = () => sessionStorage.removeItem(KEY);

/** Where the letters page lives. */
export const LETTERS_PATH = '/invite-letters';
