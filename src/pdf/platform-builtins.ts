/**
 * pdf-parse and pdf.js's worker code each bundle core-js, whose polyfills replace the built-ins of the
 * thread that loads them wherever core-js finds the engine's own incomplete. On Node 20 that is
 * `Array.prototype.push` (a JavaScript version that makes an arguments object and a property descriptor
 * on every call), `JSON.parse` and `Function.prototype.toString`: after its first PDF, every push of every
 * module in a worker went through core-js (README, "Performance", eighth round). Loading them through
 * this keeps what they add (newer methods, pdf.js's DOMMatrix) and puts back what the platform had.
 */
export async function keepingPlatformBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const before = snapshot();
  try {
    return await load();
  } finally {
    restore(before);
  }
}

/** The ECMAScript globals whose properties a polyfill may replace (host objects such as process are not). */
const INTRINSICS = [
  "Object",
  "Function",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "BigInt",
  "Math",
  "JSON",
  "Reflect",
  "Promise",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "RegExp",
  "Date",
  "Error",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Atomics",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
] as const;

interface Property {
  owner: object;
  key: PropertyKey;
  descriptor: PropertyDescriptor;
}

function intrinsicObjects(): object[] {
  const global = globalThis as unknown as Record<string, object>;
  const typedArray = Object.getPrototypeOf(Uint8Array) as object;
  const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
  const objects = [typedArray, iteratorPrototype];
  for (const name of INTRINSICS) objects.push(global[name] as object);
  for (const object of [...objects]) {
    // Function.prototype is itself a function.
    const prototype: unknown = typeof object === "function" ? object.prototype : undefined;
    if (prototype instanceof Object) objects.push(prototype);
  }
  return objects;
}

function snapshot(): Property[] {
  const properties: Property[] = [];
  const global = globalThis as unknown as object;
  for (const name of INTRINSICS) properties.push(propertyOf(global, name));
  for (const owner of intrinsicObjects()) {
    for (const key of Reflect.ownKeys(owner)) properties.push(propertyOf(owner, key));
  }
  return properties;
}

function propertyOf(owner: object, key: PropertyKey): Property {
  return { owner, key, descriptor: Object.getOwnPropertyDescriptor(owner, key) ?? {} };
}

function restore(properties: Property[]): void {
  for (const { owner, key, descriptor } of properties) {
    const now = Object.getOwnPropertyDescriptor(owner, key);
    if (!now || same(now, descriptor) || !now.configurable) continue;
    Object.defineProperty(owner, key, descriptor);
  }
}

function same(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;
}
