import type { Request } from 'express';
import { AppError } from '../../http/errors.js';
import type { ParsedDocument } from '../store.js';

/** Reads a multipart/form-data upload (`file`) and extracts its text. Placeholder. */
export async function readUpload(_req: Request): Promise<ParsedDocument> {
  throw new AppError('validation_error', 'File uploads are not available on this server yet');
}
