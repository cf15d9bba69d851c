import ts from 'typescript';

/**
 * Compares a JSON Schema (the subset the config schema uses) with an
 * exported TypeScript type, recursively: property names, optionality (a key
 * is optional in the TS type exactly when the schema neither requires it nor
 * defaults it), primitive types, nullability, array items, maps, enum
 * literals, and `oneOf` object shapes against a union of object types.
 * Returns one line per disagreement; [] means they agree.
 */
export function compareSchemaWithTypes(schema: JsonSchema, fileTypesPath: string, typeName: string): string[] {
  const program = ts.createProgram([fileTypesPath], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(fileTypesPath);
  if (!source) return [`cannot read ${fileTypesPath}`];
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol).find((s) => s.name === typeName) : undefined;
  if (!exported) return [`${typeName} is not exported by ${fileTypesPath}`];
  const mismatches: string[] = [];
  compareNode(checker, schema, membersOf(checker.getDeclaredTypeOfSymbol(exported)), typeName, mismatches);
  return mismatches;
}

export interface JsonSchema {
  [keyword: string]: unknown;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  pattern?: string;
}

// Keywords this comparison understands or that do not change the TS type. Any other keyword (anyOf, $ref…) is reported, so the check cannot silently skip part of the schema.
const understood = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'oneOf',
  // A constraint on a string's text: no TypeScript type says it (checked to sit on a string below).
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minItems',
  'minProperties',
  'uniqueItems',
]);

/** A TS type as the list of its union members (booleans are true | false). */
function membersOf(type: ts.Type): readonly ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

function compareNode(
  checker: ts.TypeChecker,
  schema: JsonSchema,
  members: readonly ts.Type[],
  path: string,
  out: string[],
): void {
  for (const keyword of Object.keys(schema))
    if (!understood.has(keyword)) out.push(`${path}: schema keyword "${keyword}" is not understood by this comparison`);
  if (schema.oneOf) {
    compareOneOf(checker, schema.oneOf, members, path, out);
    return;
  }
  if (schema.pattern !== undefined && schema.type !== 'string')
    out.push(`${path}: pattern constrains strings, but the schema type is ${String(schema.type)}`);
  const shown = members.map((m) => checker.typeToString(m)).join(' | ');
  const schemaTypes = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const seen = new Set<string>();
  const literals = new Set<string>();
  for (const member of members) {
    const kind = kindOf(checker, member);
    if (kind === 'literal') literals.add((member as ts.StringLiteralType).value);
    else seen.add(kind);
  }
  const expected = new Set(schemaTypes.map((t) => (t === 'integer' ? 'number' : t)));
  if (schema.enum) {
    expected.delete('string');
    const want = [...schema.enum].map(String).sort().join('|');
    const have = [...literals].sort().join('|');
    if (want !== have) out.push(`${path}: enum is ${want} in the schema but ${have || shown} in TypeScript`);
  } else if (literals.size > 0) {
    out.push(`${path}: TypeScript has literals ${[...literals].join('|')} but the schema has no enum`);
  }
  const want = [...expected].sort().join(' | ');
  const have = [...seen].sort().join(' | ');
  if (want !== have)
    out.push(
      `${path}: type is ${want || '(enum only)'} in the schema but ${have || '(literals only)'} in TypeScript (${shown})`,
    );

  for (const member of members) {
    const kind = kindOf(checker, member);
    if (kind === 'array' && schema.items)
      compareNode(
        checker,
        schema.items,
        membersOf(checker.getTypeArguments(member as ts.TypeReference)[0]),
        `${path}[]`,
        out,
      );
    if (kind === 'object') compareObject(checker, schema, member, path, out);
  }
}

/**
 * `oneOf` of object shapes ↔ a TypeScript union of object types: each shape
 * pairs with the union member that has the same property names, and each
 * pair is compared like any object.
 */
function compareOneOf(
  checker: ts.TypeChecker,
  shapes: JsonSchema[],
  members: readonly ts.Type[],
  path: string,
  out: string[],
): void {
  const names = (list: string[]) => `{ ${[...list].sort().join(', ')} }`;
  const tsShapes = new Map<string, ts.Type>();
  for (const member of members) {
    if (kindOf(checker, member) !== 'object') {
      out.push(`${path}: the schema is a oneOf of object shapes but TypeScript has ${checker.typeToString(member)}`);
      continue;
    }
    tsShapes.set(names(checker.getPropertiesOfType(member).map((p) => p.name)), member);
  }
  const schemaShapes = new Set<string>();
  shapes.forEach((shape, index) => {
    if (shape.type !== 'object' || !shape.properties) {
      out.push(`${path}: oneOf[${index}] is not an object shape, which this comparison does not understand`);
      return;
    }
    const key = names(Object.keys(shape.properties));
    schemaShapes.add(key);
    const member = tsShapes.get(key);
    if (member) compareNode(checker, shape, [member], `${path}${key}`, out);
    else out.push(`${path}: the oneOf shape ${key} of the schema has no TypeScript union member with these properties`);
  });
  for (const key of tsShapes.keys())
    if (!schemaShapes.has(key)) out.push(`${path}: the TypeScript union member ${key} is no oneOf shape of the schema`);
}

function compareObject(checker: ts.TypeChecker, schema: JsonSchema, type: ts.Type, path: string, out: string[]): void {
  const properties = checker.getPropertiesOfType(type);
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  if (typeof schema.additionalProperties === 'object') {
    if (!index)
      out.push(`${path}: the schema is a map (additionalProperties) but TypeScript has no string index signature`);
    else compareNode(checker, schema.additionalProperties, membersOf(index.type), `${path}[*]`, out);
    if (properties.length > 0)
      out.push(
        `${path}: the schema is a map but TypeScript declares properties ${properties.map((p) => p.name).join(', ')}`,
      );
    return;
  }
  if (index) out.push(`${path}: TypeScript has an index signature but the schema lists fixed properties`);
  const schemaProperties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const name of Object.keys(schemaProperties)) {
    if (!properties.some((p) => p.name === name)) out.push(`${path}.${name}: in the schema but missing in TypeScript`);
  }
  for (const property of properties) {
    const subschema = schemaProperties[property.name];
    if (!subschema) {
      out.push(`${path}.${property.name}: in TypeScript but missing in the schema`);
      continue;
    }
    const optionalInTs = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const optionalInSchema = !required.has(property.name) && !('default' in subschema);
    if (optionalInTs !== optionalInSchema) {
      out.push(
        `${path}.${property.name}: ${optionalInSchema ? 'optional' : 'always present (required or defaulted)'} in the schema but ${optionalInTs ? 'optional' : 'not optional'} in TypeScript`,
      );
    }
    // An optional property's type includes undefined under strict; the schema says nothing about that.
    const members = membersOf(checker.getTypeOfSymbol(property)).filter(
      (t) => !optionalInTs || (t.flags & ts.TypeFlags.Undefined) === 0,
    );
    compareNode(checker, subschema, members, `${path}.${property.name}`, out);
  }
}

function kindOf(checker: ts.TypeChecker, type: ts.Type): string {
  if (type.flags & ts.TypeFlags.StringLiteral) return 'literal';
  if (type.flags & ts.TypeFlags.String) return 'string';
  if (type.flags & ts.TypeFlags.Number) return 'number';
  if (type.flags & ts.TypeFlags.BooleanLiteral || type.flags & ts.TypeFlags.Boolean) return 'boolean';
  if (type.flags & ts.TypeFlags.Null) return 'null';
  if (type.flags & ts.TypeFlags.Undefined) return 'undefined';
  if (checker.isArrayType(type)) return 'array';
  if (type.flags & ts.TypeFlags.Object) return 'object';
  return `unsupported(${checker.typeToString(type)})`;
}
