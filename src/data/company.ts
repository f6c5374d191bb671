import type { CompanyInfo } from '../../integrations/agent-api/operations/schemas.ts';

export const companyInfo: CompanyInfo = { brand: 'Placeholder', website: '/' };
