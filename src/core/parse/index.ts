/**
 * Reading matrices from text: one literal (`parseMatrixLiteral`) or every matrix assignment
 * in a document or a chat message (`findAssignments`). See literal.ts for the accepted
 * syntax and assignments.ts for what counts as an assignment.
 */
export { parseMatrixLiteral, parseMatrixAt, isLiteralName, type Origin } from './literal.js';
export { findAssignments, type Assignment } from './assignments.js';
export { findModels, type ModelFamily } from './models.js';
