/**
 * What the site says about each city: areas and nearby towns covered, response times and a local note.
 * Names, provinces and the tax of each city are company facts in company.ts.
 */

export type Climate = 'atlantico' | 'continental' | 'mediterraneo' | 'calor' | 'canario';

export interface CityText {
  climate: Climate;
  /** Districts and neighbourhoods of the city itself. */
  districts: string[];
  /** Towns of the metropolitan area or island we also cover. */
  nearby: string[];
  /** Usual arrival time of an emergency call in the city centre. */
  urgentResponse: string;
  /** Usual delay for a scheduled visit. */
  scheduledResponse: string;
  /** Something true and useful about homes there. */
  note: string;
  /** Housing stock, used in the service-city pages. */
  housing: string;
}

export const cityTexts: Record<string, CityText> = {
  tenerife: {
    climate: 'canario',
    districts: [
      'Santa Cruz (Centro-Ifara, Salud-La Salle, Ofra-Costa Sur, Anaga)',
      'San Cristóbal de La Laguna',
      'La Orotava',
      'Puerto de la Cruz',
      'Los Cristianos',
    ],
    nearby: [
      'Adeje',
      'Arona',
      'Candelaria',
      'Los Realejos',
      'Tacoronte',
      'Güímar',
      'Icod de los Vinos',
    ],
    urgentResponse:
      'entre 60 y 90 minutos en el área metropolitana de Santa Cruz y La Laguna, algo más en el sur',
    scheduledResponse: 'en 24 a 48 horas',
    note: 'Tenerife tributa con IGIC y no con IVA, así que las facturas de la isla llevan el IGIC canario. Atendemos con técnicos en el área metropolitana y en el sur, y planificamos las visitas al norte y a las medianías para agrupar desplazamientos por la autopista.',
    housing:
      'Conviven pisos del área metropolitana de Santa Cruz y La Laguna, casas terreras con azotea y apartamentos turísticos del sur de la isla.',
  },
  'las-palmas': {
    climate: 'canario',
    districts: [
      'Vegueta',
      'Triana',
      'Guanarteme',
      'Alcaravaneras',
      'Escaleritas',
      'Schamann',
      'Tafira',
      'Ciudad Jardín',
    ],
    nearby: [
      'Telde',
      'Arucas',
      'Santa Brígida',
      'Ingenio',
      'Agüimes',
      'Gáldar',
      'San Bartolomé de Tirajana',
    ],
    urgentResponse: 'entre 45 y 75 minutos en la capital, algo más en el sur de Gran Canaria',
    scheduledResponse: 'en 24 a 48 horas',
    note: 'En Las Palmas de Gran Canaria se aplica el IGIC en lugar del IVA. La cercanía del mar en barrios como Guanarteme o Las Canteras hace que el salitre sea un factor en casi cualquier reparación exterior.',
    housing:
      'Hay bloques de pisos de los años sesenta y setenta en Schamann y Escaleritas, casas de azotea en los riscos y edificios históricos en Vegueta y Triana.',
  },
  mallorca: {
    climate: 'mediterraneo',
    districts: [
      'Palma: Centre, Santa Catalina, Son Espanyolet, Pere Garau, El Molinar, Son Ferriol, Portixol',
    ],
    nearby: ['Marratxí', 'Llucmajor', 'Calvià', 'Inca', 'Manacor', 'Alcúdia', 'Sóller'],
    urgentResponse:
      'entre 45 y 75 minutos en Palma y Marratxí; en el resto de la isla, según la zona',
    scheduledResponse: 'en 24 a 72 horas',
    note: 'Al ser una isla, las piezas que no son de uso común pueden tardar uno o dos días más en llegar desde la península; los técnicos llevan stock de lo habitual. En temporada alta agrupamos las visitas a la Serra de Tramuntana y al Llevant.',
    housing:
      'Predominan pisos en Palma, casas de pueblo con muros de marès y chalets y apartamentos de segunda residencia en la costa.',
  },
  madrid: {
    climate: 'continental',
    districts: [
      'Centro',
      'Chamberí',
      'Salamanca',
      'Retiro',
      'Chamartín',
      'Tetuán',
      'Arganzuela',
      'Carabanchel',
      'Latina',
      'Puente de Vallecas',
      'Moncloa-Aravaca',
      'Hortaleza',
      'Ciudad Lineal',
    ],
    nearby: [
      'Alcobendas',
      'San Sebastián de los Reyes',
      'Getafe',
      'Leganés',
      'Alcorcón',
      'Móstoles',
      'Fuenlabrada',
      'Pozuelo de Alarcón',
      'Las Rozas',
      'Alcalá de Henares',
      'Torrejón de Ardoz',
    ],
    urgentResponse:
      'entre 45 y 60 minutos dentro de la M-30, y hasta hora y media en el área metropolitana',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'Madrid es nuestra sede y la ciudad con más técnicos propios. En los edificios antiguos del centro y Chamberí encontramos aún tuberías de plomo y cuadros eléctricos sin diferencial; en los barrios de los sesenta y setenta, bajantes de fibrocemento que conviene revisar.',
    housing:
      'Edificios de principios del siglo XX en Centro y Chamberí, bloques de los años sesenta en Vallecas, Carabanchel o Tetuán y urbanizaciones con piscina en el norte y en los municipios del área metropolitana.',
  },
  barcelona: {
    climate: 'mediterraneo',
    districts: [
      'Ciutat Vella',
      'Eixample',
      'Gràcia',
      'Sants-Montjuïc',
      'Les Corts',
      'Sarrià-Sant Gervasi',
      'Horta-Guinardó',
      'Nou Barris',
      'Sant Andreu',
      'Sant Martí',
    ],
    nearby: [
      "L'Hospitalet de Llobregat",
      'Badalona',
      'Santa Coloma de Gramenet',
      'Cornellà de Llobregat',
      'Sant Cugat del Vallès',
      'El Prat de Llobregat',
      'Esplugues de Llobregat',
    ],
    urgentResponse: 'entre 45 y 75 minutos en la ciudad y en los municipios del Barcelonès',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En las fincas del Eixample y Ciutat Vella trabajamos a menudo con instalaciones comunitarias antiguas, techos altos y patios de luces estrechos; calculamos el material de acceso (andamios, escaleras largas) desde la primera visita.',
    housing:
      'Fincas modernistas del Eixample con techos altos, pisos pequeños en Ciutat Vella y Gràcia y bloques de los sesenta en Nou Barris y Sant Andreu.',
  },
  valencia: {
    climate: 'mediterraneo',
    districts: [
      'Ciutat Vella',
      'Eixample (Russafa)',
      'Extramurs',
      'Campanar',
      'Benimaclet',
      'Algirós',
      'Poblats Marítims (El Cabanyal)',
      'Patraix',
      'Quatre Carreres',
    ],
    nearby: ['Torrent', 'Paterna', 'Burjassot', 'Mislata', 'Alboraia', 'Manises', 'Catarroja'],
    urgentResponse: 'entre 45 y 75 minutos en la ciudad y el área metropolitana',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En Valencia el agua es de las más duras de España: la cal es la primera causa de averías en grifos, termos y electrodomésticos. Las lluvias torrenciales de otoño ponen a prueba terrazas, sumideros y bajantes.',
    housing:
      'Pisos de principios de siglo en Russafa y Ciutat Vella, casas de planta baja en El Cabanyal y bloques de los setenta en los barrios del oeste.',
  },
  zaragoza: {
    climate: 'continental',
    districts: [
      'Centro',
      'Casco Histórico',
      'Delicias',
      'Universidad',
      'San José',
      'Las Fuentes',
      'Actur-Rey Fernando',
      'El Rabal',
      'Torrero',
    ],
    nearby: [
      'Utebo',
      'Cuarte de Huerva',
      'Cadrete',
      'La Puebla de Alfindén',
      'Villanueva de Gállego',
      'Zuera',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'El cierzo es protagonista en Zaragoza: persianas, toldos, antenas y cristales de fachada sufren con sus rachas, y los inviernos fríos concentran los avisos de calderas.',
    housing:
      'Bloques de los años sesenta y setenta en Delicias, San José y Las Fuentes, viviendas más nuevas en el Actur y Valdespartera y edificios antiguos en el Casco Histórico.',
  },
  sevilla: {
    climate: 'calor',
    districts: [
      'Casco Antiguo',
      'Triana',
      'Los Remedios',
      'Nervión',
      'Macarena',
      'Sevilla Este',
      'Bellavista',
      'Cerro-Amate',
      'San Pablo',
    ],
    nearby: [
      'Dos Hermanas',
      'Alcalá de Guadaíra',
      'Mairena del Aljarafe',
      'Tomares',
      'San Juan de Aznalfarache',
      'Camas',
      'La Rinconada',
    ],
    urgentResponse: 'entre 45 y 75 minutos en la ciudad y el Aljarafe',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En Sevilla el verano manda: con máximas por encima de 40 °C, los avisos de aire acondicionado se multiplican de junio a septiembre y damos prioridad a los hogares con personas mayores. En las casas de patio del Casco Antiguo cuidamos especialmente las humedades por capilaridad.',
    housing:
      'Casas de patio y corrales de vecinos en el Casco Antiguo y Triana, pisos de los sesenta en Los Remedios y Nervión y urbanizaciones con jardín en el Aljarafe.',
  },
  malaga: {
    climate: 'mediterraneo',
    districts: [
      'Centro',
      'El Palo',
      'Pedregalejo',
      'Cruz de Humilladero',
      'Carretera de Cádiz',
      'Teatinos',
      'Ciudad Jardín',
      'Churriana',
      'Bailén-Miraflores',
    ],
    nearby: [
      'Torremolinos',
      'Benalmádena',
      'Rincón de la Victoria',
      'Alhaurín de la Torre',
      'Fuengirola',
      'Cártama',
    ],
    urgentResponse: 'entre 45 y 75 minutos en la ciudad y la primera línea de la Costa del Sol',
    scheduledResponse: 'en 24 horas',
    note: 'En Málaga la brisa marina llega a buena parte de la ciudad, con salitre que corroe herrajes, cerraduras y unidades exteriores de aire acondicionado. Los meses de más trabajo son los de verano, con la ciudad llena de viviendas de temporada.',
    housing:
      'Casas marineras en El Palo y Pedregalejo, pisos de los setenta en Carretera de Cádiz y Cruz de Humilladero y edificios nuevos en Teatinos.',
  },
  granada: {
    climate: 'continental',
    districts: [
      'Centro-Sagrario',
      'Albaicín',
      'Realejo',
      'Zaidín',
      'Chana',
      'Beiro',
      'Ronda',
      'Genil',
      'Norte (Cartuja, Almanjáyar)',
    ],
    nearby: ['Armilla', 'Maracena', 'Albolote', 'Ogíjares', 'La Zubia', 'Las Gabias', 'Santa Fe'],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad y el área metropolitana',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'Granada combina inviernos fríos, con heladas por la cercanía de Sierra Nevada, y veranos muy calurosos. En el Albaicín y el Realejo las calles estrechas y empinadas obligan a ir a pie con el material: lo tenemos en cuenta al dar la hora de llegada.',
    housing:
      'Cármenes y casas antiguas en el Albaicín y el Realejo, pisos de los setenta en el Zaidín y la Chana y urbanizaciones en los pueblos del cinturón.',
  },
  vigo: {
    climate: 'atlantico',
    districts: [
      'Casco Vello',
      'Centro',
      'Bouzas',
      'Coia',
      'Teis',
      'Lavadores',
      'Navia',
      'Travesas',
      'Alcabre',
    ],
    nearby: ['Redondela', 'Mos', 'Porriño', 'Nigrán', 'Baiona', 'Cangas', 'Moaña'],
    urgentResponse: 'entre 45 y 60 minutos en la ciudad',
    scheduledResponse: 'en 24 horas',
    note: 'Vigo es una de las ciudades más lluviosas de nuestra red: la humedad ambiental hace que las filtraciones en fachadas, la condensación en dormitorios y el moho en baños sean avisos de todo el año.',
    housing:
      'Edificios de granito en el Casco Vello y el Centro, bloques de los setenta en Teis y Coia y viviendas unifamiliares en las parroquias y en la ría.',
  },
  murcia: {
    climate: 'calor',
    districts: [
      'Centro (San Bartolomé, San Lorenzo)',
      'El Carmen',
      'Santa María de Gracia',
      'Vistalegre',
      'La Flota',
      'El Infante Juan Manuel',
      'Espinardo',
      'El Palmar',
    ],
    nearby: [
      'Molina de Segura',
      'Alcantarilla',
      'Las Torres de Cotillas',
      'Santomera',
      'Beniel',
      'Churra',
      'Cabezo de Torres',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad y las pedanías cercanas',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En Murcia el calor del verano y la dureza del agua explican buena parte de los avisos: aires acondicionados, termos llenos de cal y grifos que se atascan. Las pedanías de la huerta tienen muchas casas con pozo o aljibe.',
    housing:
      'Pisos en el centro y en los barrios del norte, casas de huerta en las pedanías y urbanizaciones en Molina y Santomera.',
  },
  cordoba: {
    climate: 'calor',
    districts: [
      'Centro',
      'Judería',
      'San Lorenzo',
      'Santa Marina',
      'Ciudad Jardín',
      'Levante',
      'Poniente',
      'Fuensanta',
      'El Brillante',
    ],
    nearby: [
      'Alcolea',
      'Villarrubia',
      'Cerro Muriano',
      'Almodóvar del Río',
      'La Carlota',
      'Villafranca de Córdoba',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'Córdoba marca algunas de las temperaturas más altas de España en verano. En las casas de patio del casco histórico combinamos el cuidado de instalaciones antiguas con la normativa de protección del conjunto histórico.',
    housing:
      'Casas de patio en la Judería, San Lorenzo y Santa Marina, pisos de los sesenta y setenta en Ciudad Jardín y Levante y chalés en El Brillante.',
  },
  bilbao: {
    climate: 'atlantico',
    districts: [
      'Abando',
      'Indautxu',
      'Casco Viejo',
      'Deusto',
      'Begoña',
      'Santutxu',
      'Uribarri',
      'Basurto',
      'Rekalde',
      'Otxarkoaga',
    ],
    nearby: [
      'Barakaldo',
      'Getxo',
      'Portugalete',
      'Santurtzi',
      'Basauri',
      'Leioa',
      'Galdakao',
      'Sestao',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la villa y en la margen izquierda',
    scheduledResponse: 'en 24 horas',
    note: 'Bilbao tiene un clima húmedo y lluvioso («sirimiri») que hace de las humedades, la condensación y las filtraciones por fachada un trabajo constante. Muchos edificios de Abando e Indautxu son de principios del siglo XX, con instalaciones que conviene actualizar.',
    housing:
      'Edificios de principios de siglo en Abando e Indautxu, bloques en ladera en Santutxu y Otxarkoaga y viviendas en las dos márgenes de la ría.',
  },
  alicante: {
    climate: 'mediterraneo',
    districts: [
      'Centro',
      'Casco Antiguo (Santa Cruz)',
      'Ensanche Diputación',
      'San Blas',
      'Benalúa',
      'Carolinas',
      'Playa de San Juan',
      'Albufereta',
      'Vistahermosa',
    ],
    nearby: [
      'San Vicente del Raspeig',
      "Sant Joan d'Alacant",
      'El Campello',
      'Mutxamel',
      'Xixona',
      'Santa Pola',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad y la Playa de San Juan',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En Alicante el agua es muy dura y el ambiente es salino cerca del mar. Muchas viviendas de la Playa de San Juan y la Albufereta son de temporada: revisamos instalaciones antes de la llegada del verano.',
    housing:
      'Pisos del Ensanche y Benalúa, casas bajas en el Casco Antiguo y apartamentos de playa en San Juan y la Albufereta.',
  },
  valladolid: {
    climate: 'continental',
    districts: [
      'Centro',
      'Delicias',
      'Parquesol',
      'La Rondilla',
      'Pajarillos',
      'Huerta del Rey',
      'Arturo Eyries',
      'La Victoria',
      'Covaresa',
    ],
    nearby: [
      'Laguna de Duero',
      'Arroyo de la Encomienda',
      'Simancas',
      'Zaratán',
      'La Cistérniga',
      'Tudela de Duero',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'Los inviernos de Valladolid son largos y con heladas y nieblas: calderas, radiadores y tuberías expuestas concentran los avisos entre noviembre y marzo. Muchas comunidades conservan calefacción central.',
    housing:
      'Bloques de los sesenta en Delicias, La Rondilla y Pajarillos, viviendas más nuevas en Parquesol y Covaresa y edificios señoriales en el centro.',
  },
  gijon: {
    climate: 'atlantico',
    districts: [
      'Centro',
      'Cimadevilla',
      'El Coto',
      'La Calzada',
      'El Llano',
      'Pumarín',
      'La Arena',
      'Somió',
      'Contrueces',
    ],
    nearby: [
      'Avilés',
      'Candás',
      'Villaviciosa',
      'Siero (Pola de Siero, Lugones)',
      'Llanera',
      'Carreño',
    ],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en 24 horas',
    note: 'En Gijón el viento del Cantábrico y la humedad castigan fachadas, cristales y persianas de primera línea de playa, en barrios como La Arena o el Muro de San Lorenzo. La condensación en dormitorios es un aviso frecuente en otoño e invierno.',
    housing:
      'Casas de pescadores en Cimadevilla, bloques obreros en La Calzada y El Llano y chalés en Somió.',
  },
  'a-coruna': {
    climate: 'atlantico',
    districts: [
      'Ciudad Vieja',
      'Pescadería',
      'Ensanche',
      'Monte Alto',
      'Os Mallos',
      'Agra do Orzán',
      'Os Castros',
      'Matogrande',
      'Elviña',
    ],
    nearby: ['Arteixo', 'Culleredo', 'Oleiros', 'Cambre', 'Sada', 'Betanzos'],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad y su comarca',
    scheduledResponse: 'en 24 horas',
    note: 'A Coruña es ciudad de viento y lluvia: las galerías acristaladas tan típicas de la Marina y la Ciudad Vieja necesitan ajustes de carpintería y cristalería, y las humedades por condensación son frecuentes.',
    housing:
      'Edificios con galerías en la Marina y la Ciudad Vieja, bloques densos en el Agra do Orzán y Os Mallos y urbanizaciones en Oleiros y Culleredo.',
  },
  elche: {
    climate: 'mediterraneo',
    districts: [
      'Centro',
      'El Raval',
      'Carrús',
      'El Pla',
      'Altabix',
      'Sector V',
      'Toscar',
      'Los Arenales del Sol (pedanía costera)',
    ],
    nearby: ['Santa Pola', 'Crevillent', 'Aspe', 'Torrellano', 'La Marina', 'El Altet'],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: "En Elche el agua dura y los veranos calurosos marcan la mayoría de los avisos; en el Camp d'Elx hay muchas casas diseminadas entre palmerales, con fosa séptica y pozo, que visitamos con cita.",
    housing:
      'Pisos de los setenta en Carrús y El Pla, viviendas bajas en El Raval y casas de campo en las partidas rurales.',
  },
  oviedo: {
    climate: 'atlantico',
    districts: [
      'Centro',
      'Casco Antiguo',
      'Buenavista',
      'La Florida',
      'Pumarín',
      'Teatinos',
      'Ciudad Naranco',
      'Vallobín',
      'El Cristo',
    ],
    nearby: ['Lugones', 'Llanera', 'Siero', 'Colloto', 'La Corredoria', 'Mieres'],
    urgentResponse: 'entre 40 y 60 minutos en la ciudad',
    scheduledResponse: 'en 24 horas',
    note: 'Oviedo combina lluvia frecuente con inviernos frescos: la calefacción se usa muchos meses y las humedades por condensación y filtración en fachadas son de los avisos más habituales.',
    housing:
      'Edificios históricos en el Casco Antiguo, pisos de los sesenta y setenta en Pumarín y Teatinos y promociones nuevas en La Florida y La Corredoria.',
  },
  pamplona: {
    climate: 'continental',
    districts: [
      'Casco Antiguo',
      'Primer Ensanche',
      'Segundo Ensanche',
      'San Juan',
      'Iturrama',
      'Ermitagaña',
      'Rochapea',
      'Txantrea',
      'Mendillorri',
      'Milagrosa',
    ],
    nearby: ['Burlada', 'Villava', 'Barañáin', 'Zizur Mayor', 'Ansoáin', 'Huarte', 'Mutilva'],
    urgentResponse: 'entre 40 y 60 minutos en Pamplona y la Comarca',
    scheduledResponse: 'en el mismo día o al día siguiente',
    note: 'En Pamplona los inviernos son fríos y húmedos, con heladas frecuentes: calderas y radiadores concentran los avisos de noviembre a marzo, y en los edificios del Casco Antiguo las instalaciones suelen ser antiguas.',
    housing:
      'Edificios históricos del Casco Antiguo, el Ensanche con sus manzanas de los años veinte a cincuenta y barrios residenciales como Iturrama, San Juan y Mendillorri.',
  },
};

export function findCityText(slug: string): CityText {
  const text = cityTexts[slug];
  if (!text) throw new Error(`No texts for city "${slug}" in src/data/cities.ts`);
  return text;
}
