// The signed-in account as page state: the account menu shows it, every screen may read it.
// Guests are still made on demand (ensureMe, when a person first sits down or creates a table).
import { api, ApiError, onMe, rememberMe, type Me } from './api';

export const account = $state<{ me: Me | null; known: boolean }>({ me: null, known: false });

onMe((me) => {
  account.me = me;
  account.known = true;
});

/** Asks the server who is signed in (a guest is not made for it). */
export async function loadAccount(): Promise<void> {
  try {
    rememberMe(await api.me());
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) rememberMe(null);
    else throw e;
  }
}
