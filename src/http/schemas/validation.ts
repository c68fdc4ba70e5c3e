// What a schema validator's first complaint says to a client: the offending field by its path
// (`content.description`), where it was (query or path parameter, body), and what is wrong. Shared by the
// REST error envelope and the MCP tools, which validate with the same schemas.

export interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const SERVER_ASSIGNED = new Set(['id', 'agent_id', 'quality_score', 'validations', 'created_at', 'updated_at']);

/** `/content/description` → `content.description`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/** A message that names the offending field, e.g. `content.description must NOT have more than 20000 characters`. */
export function validationMessage(issue: AjvIssue, context: string | undefined): string {
  const base = fieldPath(issue.instancePath);
  const join = (name: string) => (base ? `${base}.${name}` : name);
  const where = context === 'querystring' ? 'query parameter ' : context === 'params' ? 'path parameter ' : '';
  switch (issue.keyword) {
    case 'required':
      return `${where}${join(String(issue.params.missingProperty))} is required`;
    case 'additionalProperties': {
      const name = String(issue.params.additionalProperty);
      if (context === 'body' && !base && SERVER_ASSIGNED.has(name)) {
        return `${name} is assigned by the server and must not be sent`;
      }
      return `${where}${join(name)} is not a known field`;
    }
    case 'enum':
      return `${where}${base || context} must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${where}${base || (context === 'body' ? 'body' : context)} ${issue.message ?? 'is invalid'}`;
  }
}
