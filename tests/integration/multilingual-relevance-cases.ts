/**
 * Queries written from the first paragraphs of Starlight's own documentation (withastro/starlight,
 * `docs/src/content/docs/`, vendored under tests/fixtures/ as a real site): nouns and phrases a reader
 * of the page would type, in Japanese, Chinese and Korean and in five languages written in Latin or
 * Cyrillic letters, each with the pages that answer it (site paths, trailing slash). Used by the
 * real-site test (top 3) and by bench/search-scripts.ts (hit rate and MRR against Pagefind).
 */
export interface MultilingualCase {
  language: string;
  query: string;
  /** Any of these pages in the top 3 is a hit. */
  expected: string[];
  /**
   * What the query tests beside its language: an identifier (`defaultLocale`, `autogenerate.collapsed`,
   * or its words apart) or a katakana word spelled with the long-vowel mark where the page drops it, or
   * the other way round (エントリー, エントリ). Plain words and phrases when absent.
   */
  kind?: 'identifier' | 'long vowel';
}

const cases = (
  language: string,
  prefix: string,
  table: Record<string, string | string[]>,
  kind?: MultilingualCase['kind'],
): MultilingualCase[] =>
  Object.entries(table).map(([query, paths]) => ({
    language,
    query,
    expected: [paths].flat().map((path) => `${prefix}${path}/`),
    ...(kind && { kind }),
  }));

export const MULTILINGUAL_CASES: readonly MultilingualCase[] = [
  ...cases('ja', '/ja/', {
    補足情報: 'components/asides',
    ステータスやカテゴリー: 'components/badges',
    折りたたみ可能なサブディレクトリ: 'components/file-tree',
    コールトゥアクション: 'components/link-buttons',
    番号付きリスト: 'components/steps',
    タブインターフェース: 'components/tabs',
    炭素排出量: 'environmental-impact',
    右横書き: 'guides/i18n',
    全文検索: 'guides/site-search',
    ディレクトリ構成: 'guides/project-structure',
    Tailwindプラグイン: 'guides/css-and-tailwind',
    組み込みのアイコンセット: ['reference/icons', 'components/icons'],
    手動セットアップ: 'manual-setup',
    ルートデータオブジェクト: ['guides/route-data', 'reference/route-data'],
    シンタックスハイライト: 'components/code',
    サイドバーのナビゲーション: 'guides/sidebar',
  }),
  ...cases('zh-CN', '/zh-cn/', {
    次要信息: 'components/asides',
    状态或类别: 'components/badges',
    可折叠子目录: 'components/file-tree',
    号召性用语: 'components/link-buttons',
    分步指南: 'components/steps',
    选项卡式界面: 'components/tabs',
    碳排放量: 'environmental-impact',
    从右到左: 'guides/i18n',
    全文搜索: 'guides/site-search',
    项目的组织方式: 'guides/project-structure',
    侧边栏: 'guides/sidebar',
    路由数据对象: ['guides/route-data', 'reference/route-data'],
    内置图标: ['reference/icons', 'components/icons'],
    全功能文档主题: 'getting-started',
  }),
  ...cases('ko', '/ko/', {
    '보조 정보': 'components/asides',
    '상태나 카테고리': 'components/badges',
    '하위 디렉터리': 'components/file-tree',
    콜투액션: 'components/link-buttons',
    '단계별 가이드': 'components/steps',
    '탭 인터페이스': 'components/tabs',
    '탄소 배출량': 'environmental-impact',
    '오른쪽에서 왼쪽': 'guides/i18n',
    사이드바: 'guides/sidebar',
    '경로 데이터 객체': ['guides/route-data', 'reference/route-data'],
    '아이콘 세트': ['reference/icons', 'components/icons'],
    프런트매터: 'reference/frontmatter',
    '낮은 대역폭': 'guides/site-search',
  }),
  ...cases('en', '/', {
    'collapsible sub-directories': 'components/file-tree',
    'status or category': 'components/badges',
    'numbered list of tasks': 'components/steps',
    'global carbon emissions': 'environmental-impact',
    'full-text search': 'guides/site-search',
    'right-to-left language support': 'guides/i18n',
  }),
  ...cases('fr', '/fr/', {
    'sous-répertoires repliables': 'components/file-tree',
    'statut ou une étiquette': 'components/badges',
    'liste numérotée de tâches': 'components/steps',
    'émissions mondiales de carbone': 'environmental-impact',
    'recherche plein texte': 'guides/site-search',
    'contenu de repli': 'guides/i18n',
  }),
  ...cases('de', '/de/', {
    'einklappbaren Unterverzeichnissen': 'components/file-tree',
    'Status oder eine Kategorie': 'components/badges',
    'nummerierte Liste von Aufgaben': 'components/steps',
    Volltextsuche: 'guides/site-search',
    'mehrsprachige Websites': 'guides/i18n',
  }),
  ...cases('es', '/es/', {
    'subdirectorios colapsables': 'components/file-tree',
    'estado o categoría': 'components/badges',
    'lista numerada de tareas': 'components/steps',
    'emisiones globales de carbono': 'environmental-impact',
    'búsqueda de texto completo': 'guides/site-search',
    'contenido de respaldo': 'guides/i18n',
  }),
  // The English pages' identifiers (configuration keys, route data, plugin helpers), whole and as words.
  ...cases(
    'en',
    '/',
    {
      defaultLocale: ['reference/configuration', 'guides/i18n'],
      'default locale': ['reference/configuration', 'guides/i18n'],
      titleDelimiter: 'reference/configuration',
      'title delimiter': 'reference/configuration',
      absolutePathToLang: 'reference/plugins',
      'absolute path to lang': 'reference/plugins',
      starlightRoute: ['reference/route-data', 'guides/route-data'],
      hasSidebar: ['reference/route-data', 'guides/pages'],
      routeMiddleware: ['reference/configuration', 'guides/route-data'],
      'autogenerate.collapsed': ['reference/configuration', 'guides/sidebar'],
      'pagefind.ranking': 'reference/configuration',
      'markdown.headingLinks': 'guides/authoring-content',
      'data-pagefind-ignore': 'guides/site-search',
      YOUR_APP_ID: 'guides/site-search',
    },
    'identifier',
  ),
  // The Japanese pages write エントリ and エントリー, プロバイダ and プロバイダー: each found by the other.
  ...cases(
    'ja',
    '/ja/',
    {
      エントリーを強調表示: 'components/file-tree',
      その他の検索プロバイダー: 'guides/site-search',
      コミュニティ製の検索プロバイダー: 'guides/site-search',
      コンテンツコレクションエントリ: ['reference/route-data', 'guides/route-data'],
      ｴﾝﾄﾘｰを強調表示: 'components/file-tree',
    },
    'long vowel',
  ),
  ...cases('ru', '/ru/', {
    'сворачиваемыми подкаталогами': 'components/file-tree',
    'статус или категория': 'components/badges',
    'нумерованного списка задач': 'components/steps',
    'полнотекстовый поиск': 'guides/site-search',
    'многоязычных сайтов': 'guides/i18n',
  }),
];

/** Whether the expected page is among the first three `paths`; the reciprocal rank of the first expected page (0 when none). */
export function rankOf(testCase: MultilingualCase, paths: readonly string[]): number {
  const at = paths.findIndex((path) => testCase.expected.includes(path));
  return at === -1 ? 0 : 1 / (at + 1);
}
