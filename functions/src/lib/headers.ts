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
