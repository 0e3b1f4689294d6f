// The contract: the OpenAPI documents of schemas/ as an operation index and ajv validators.
export { documentFile, loadDocument, type Service } from './documents.ts';
export {
  findOperation,
  type OperationInfo,
  operations,
  type ParameterInfo,
  type SecurityScheme,
} from './operations.ts';
export type * from './shapes.generated.ts';
export type { Unchecked } from './shapes.ts';
export { buildOperationUrlPath, pathSegment } from './url.ts';
export {
  responseKeyFor,
  type Validation,
  validateComponent,
  validateErrorBody,
  validatePet,
  validateResponse,
} from './validators.ts';
