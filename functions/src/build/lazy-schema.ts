/**
 * The value of a zod schema that the functions build made lazy
 * (`lazy-schemas.ts`): the schema is built when it is first used (a property
 * read, a method call, `instanceof`), not when its module loads, and that one
 * schema answers every use after. The proxy forwards every operation to it,
 * so a caller sees the schema itself: same methods, same parsing, same
 * messages (ADR 0019, third pass).
 */
export const lazySchema = <T extends object>(build: () => T): T => {
  let built: T | undefined;
  const schema = (): T => {
    built ??= build();
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (stand, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a property non-configurable only if its own target has it so (zod's `_zod`).
      if (descriptor && !descriptor.configurable && !Reflect.getOwnPropertyDescriptor(stand, key)) {
        Reflect.defineProperty(stand, key, descriptor);
      }
      return descriptor;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    isExtensible: () => true,
  });
};
