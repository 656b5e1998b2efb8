/** A request header by name, whatever its case (API Gateway passes them as the client sent them). */
export const headerIn = (
  headers: Readonly<Record<string, string | undefined>> | undefined,
  name: string,
): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
};

/** A JSON answer's headers (`http.ts`; an answer kept before it is sent: `idempotency.ts`). */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};
