import type { LanguageSpec } from './language-spec.js';

function windowed(id: string, extensions: string[], extra: Partial<LanguageSpec> = {}): LanguageSpec {
  return { id, extensions, strategy: 'window', ...extra };
}

/** Languages recognised by name but chunked by line windows (no syntax rules yet). */
export const WINDOW_LANGUAGES: readonly LanguageSpec[] = [
  windowed('bash', ['.sh', '.bash', '.zsh', '.ksh'], {
    interpreters: ['sh', 'bash', 'zsh', 'ksh', 'dash'],
    fileNames: ['.bashrc', '.zshrc', '.profile'],
  }),
  windowed('c', ['.c', '.h']),
  windowed('cpp', ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx']),
  windowed('csharp', ['.cs']),
  windowed('ruby', ['.rb', '.rake', '.gemspec'], { interpreters: ['ruby'], fileNames: ['rakefile', 'gemfile'] }),
  windowed('php', ['.php']),
  windowed('kotlin', ['.kt', '.kts']),
  windowed('swift', ['.swift']),
  windowed('scala', ['.scala', '.sc']),
  windowed('lua', ['.lua'], { interpreters: ['lua'] }),
  windowed('elixir', ['.ex', '.exs']),
  windowed('dart', ['.dart']),
  windowed('perl', ['.pl', '.pm'], { interpreters: ['perl'] }),
  windowed('r', ['.r']),
  windowed('sql', ['.sql']),
  windowed('json', ['.json', '.jsonc', '.json5']),
  windowed('yaml', ['.yaml', '.yml']),
  windowed('toml', ['.toml']),
  windowed('xml', ['.xml', '.xsd', '.svg']),
  windowed('html', ['.html', '.htm']),
  windowed('css', ['.css', '.scss', '.sass', '.less']),
  windowed('vue', ['.vue']),
  windowed('svelte', ['.svelte']),
  windowed('dockerfile', ['.dockerfile'], { fileNames: ['dockerfile', 'containerfile'] }),
  windowed('makefile', ['.mk'], { fileNames: ['makefile', 'gnumakefile'] }),
];
