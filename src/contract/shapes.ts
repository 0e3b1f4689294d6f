// TypeScript types made from the component schemas of schemas/, so the suites type what they read
// with the documents' own shapes instead of typing them again by hand. The output is
// src/contract/shapes.generated.ts (written by `npx tsx src/cli/shapes.ts`); a self-test fails when
// it no longer matches the documents.
import { isObject, type JsonObject, loadDocument, SERVICES } from './documents.ts';

/** A shape's field names, each value unknown until a check has looked at it (bodies are untrusted). */
export type Unchecked<T> = { [K in keyof T]?: unknown };

const REF = /^#\/components\/schemas\/(.+)$/;

/** The TypeScript type of a schema, or undefined when it has no shape TypeScript can say simply. */
function typeOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const ref = typeof schema.$ref === 'string' ? REF.exec(schema.$ref) : null;
  if (ref) return ref[1];
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
    return schema.enum.map((v) => `'${v}'`).join(' | ');
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return schema.items === undefined ? 'unknown[]' : `${typeOf(schema.items) ?? 'unknown'}[]`;
    case 'object':
      return isObject(schema.properties) ? undefined : 'Record<string, unknown>';
    default:
      return undefined;
  }
}

function declaration(name: string, schema: JsonObject): string | undefined {
  if (schema.type === 'object' && isObject(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const fields = Object.entries(schema.properties).map(
      ([field, property]) =>
        `  ${field}${required.includes(field) ? '' : '?'}: ${typeOf(property) ?? 'unknown'};`,
    );
    return `export interface ${name} {\n${fields.join('\n')}\n}`;
  }
  const type = typeOf(schema);
  return type === undefined ? undefined : `export type ${name} = ${type};`;
}

/** The source of shapes.generated.ts: one declaration per component schema with a plain shape. */
export function shapesSource(): string {
  const declarations = SERVICES.flatMap((service) => {
    const components = loadDocument(service).doc.components;
    const schemas = isObject(components) && isObject(components.schemas) ? components.schemas : {};
    return Object.entries(schemas).flatMap(([name, schema]) => {
      const made = isObject(schema) ? declaration(name, schema) : undefined;
      return made === undefined ? [] : [`/** ${service}: #/components/schemas/${name} */\n${made}`];
    });
  });
  return `// Generated from schemas/ by src/contract/shapes.ts (npx tsx src/cli/shapes.ts): do not edit.\n\n${declarations.join('\n\n')}\n`;
}
