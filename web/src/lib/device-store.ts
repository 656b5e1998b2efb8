/**
 * The device's own store (IndexedDB): the outbox's waiting changes and the
 * car-line screens' last-known data, one record each, read and written whole.
 * (The database keeps the outbox's name: it held the outbox first.)
 */
const DB_NAME = 'curbside-outbox';
const STORE = 'outbox';

let opened: Promise<IDBDatabase> | undefined;
/** One connection for the page's life. */
const openDb = () => {
  opened ??= openOnce();
  return opened;
};
const openOnce = () =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** One record of the outbox's IndexedDB store, read and written whole. */
export const idbRecord = <T>(name: string) => ({
  async read(): Promise<T | undefined> {
    const db = await openDb();
    return new Promise<T | undefined>((resolve, reject) => {
      const request = db.transaction(STORE).objectStore(STORE).get(name);
      request.onsuccess = () => resolve(request.result as T | undefined);
      request.onerror = () => reject(request.error);
    });
  },
  async write(value: T): Promise<void> {
    const db = await openDb();
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction(STORE, 'readwrite');
      transaction.objectStore(STORE).put(value, name);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
  },
});
