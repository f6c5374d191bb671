import { getCompanyInfo } from './get-company-info.ts';
import { getQuota } from './get-quota.ts';
import { readPage } from './read-page.ts';
import { searchPages } from './search-pages.ts';

/** Every public operation, in the order agents should learn them. */
export const operations = [searchPages, readPage, getCompanyInfo, getQuota] as const;
