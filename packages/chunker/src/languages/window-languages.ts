import type { LanguageSpec } from './language-spec.js';

function windowed(id: string, extensions: string[], extra: Partial<LanguageSpec> = {}): LanguageSpec {
  return { id, extensions, strategy: 'window', ...extra };
}

/** Languages recognised by name but chunked by line windows (no grammar or no unit worth more than a window: SQL, Dockerfile, ...). */
export const WINDOW_LANGUAGES: readonly LanguageSpec[] = [
  windowed('perl', ['.pl', '.pm'], { interpreters: ['perl'] }),
  windowed('r', ['.r']),
  windowed('sql', ['.sql']),
  windowed('xml', ['.xml', '.xsd', '.svg']),
  windowed('html', ['.html', '.htm']),
  windowed('css', ['.css', '.scss', '.sass', '.less']),
  windowed('dockerfile', ['.dockerfile'], { fileNames: ['dockerfile', 'containerfile'] }),
  windowed('makefile', ['.mk'], { fileNames: ['makefile', 'gnumakefile'] }),
];
