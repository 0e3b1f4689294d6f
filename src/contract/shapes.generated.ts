// Generated from schemas/ by src/contract/shapes.ts (npx tsx src/cli/shapes.ts): do not edit.

/** main: #/components/schemas/TokenRequest */
export interface TokenRequest {
  client_id: string;
  client_secret: string;
}

/** main: #/components/schemas/TokenResponse */
export interface TokenResponse {
  access_token: string;
}

/** main: #/components/schemas/PagedEnvelope */
export interface PagedEnvelope {
  pagination: Pagination;
  data: unknown[];
  extra: Record<string, unknown>;
}

/** main: #/components/schemas/Pagination */
export interface Pagination {
  total_items: number;
  showing_items: number;
  total_pages: number;
  current_page: number;
  previous_page: number;
  next_page: number;
}

/** main: #/components/schemas/Customer */
export type Customer = Record<string, unknown>;

/** main: #/components/schemas/User */
export type User = Record<string, unknown>;

/** main: #/components/schemas/ErrorBody */
export interface ErrorBody {
  id?: string;
  code: string;
  message: string;
  status_code: number;
  timestamp: string;
  path: string;
  handled: boolean;
  errors?: string[];
}

/** petstore: #/components/schemas/Pet */
export interface Pet {
  id: number;
  name: string;
  tag?: string;
  status?: PetStatus;
}

/** petstore: #/components/schemas/PetStatus */
export type PetStatus = 'available' | 'pending' | 'sold';

/** petstore: #/components/schemas/Pets */
export type Pets = Pet[];
