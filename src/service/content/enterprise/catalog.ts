/**
 * Which projects and languages the article store holds: what /v2/projects and /v2/languages list
 * (one query each; the names come from metadata.ts).
 */
import { z } from 'zod';
import type { Db } from '../../storage/db.js';
import { language, languageOfProject, project } from './metadata.js';
import type { Language, Project } from './models.js';

const ProjectRows = z.array(z.object({ project: z.string(), language: z.string().nullable() }));

/** Every stored project, by code; a code no grammar places is listed by its identifier and stored language. */
export async function storedProjects(db: Db): Promise<Project[]> {
  const rows = ProjectRows.parse(await db.query('SELECT project, min(language) AS language FROM articles GROUP BY project ORDER BY project'));
  return rows.map((row) => project(row.project, row.language) ?? { identifier: row.project, ...(row.language === null ? {} : { in_language: language(row.language) }) });
}

/** Every language of a stored article or of a stored project's wiki, by code. */
export async function storedLanguages(db: Db): Promise<Language[]> {
  const rows = ProjectRows.parse(await db.query('SELECT DISTINCT project, language FROM articles'));
  const codes = new Set<string>();
  for (const row of rows) {
    if (row.language !== null) codes.add(row.language);
    const own = languageOfProject(row.project);
    if (own !== undefined) codes.add(own);
  }
  return [...codes].sort().map(language);
}
