'use strict';
// Seeing a property defined rather than assigned: `Object.defineProperty`, `Object.defineProperties`
// and `Reflect.defineProperty` of one realm are wrapped so that a watcher hears of each key before it
// is defined. Both the guarded exports (guard-exports.cjs) and the verdict intrinsics
// (guard-intrinsics.cjs) need this, in the guard's realm and in each test realm.

/**
 * @param {ObjectConstructor} ObjectOf the realm's `Object`
 * @param {typeof Reflect | undefined} ReflectOf the realm's `Reflect`, when it has one
 * @param {(target: unknown, key: PropertyKey) => void} seen told each key about to be defined
 */
function watchDefinitions(ObjectOf, ReflectOf, seen) {
  const defineProperty = ObjectOf.defineProperty;
  ObjectOf.defineProperty = /** @type {typeof Object.defineProperty} */ (
    function (target, key, descriptor) {
      seen(target, key);
      return defineProperty.call(this, target, key, descriptor);
    }
  );
  const defineProperties = ObjectOf.defineProperties;
  ObjectOf.defineProperties = /** @type {typeof Object.defineProperties} */ (
    function (target, descriptors) {
      if (descriptors !== null && typeof descriptors === 'object')
        for (const key of Reflect.ownKeys(descriptors)) seen(target, key);
      return defineProperties.call(this, target, descriptors);
    }
  );
  if (!ReflectOf) return;
  const reflectDefine = ReflectOf.defineProperty;
  ReflectOf.defineProperty = function (target, key, descriptor) {
    seen(target, key);
    return reflectDefine.call(this, target, key, descriptor);
  };
}

module.exports = { watchDefinitions };
