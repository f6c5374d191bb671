import { ApiError } from '../operations/api-error.ts';

export { ApiError };
